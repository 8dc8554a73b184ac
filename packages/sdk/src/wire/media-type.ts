/** The media type of every request and response document (JSON:API). */
export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';
