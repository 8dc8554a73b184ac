import type { FetchLike } from '@poker-launch/sdk';

export interface RecordedCall {
  url: string;
  headers: Record<string, string>;
  body: string;
  status?: number;
  requestId?: string | null;
}

/**
 * A `fetch` for `createLaunchClient({ fetch })` that goes to the network for real and records each call;
 * `rewrite` may alter the body on its way, as a broken proxy or a hand-rolled client would.
 */
export function recordingFetch(rewrite: (body: string) => string = (body) => body): {
  fetch: FetchLike;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call: RecordedCall = { url, headers: { ...init.headers }, body: init.body ?? '' };
    calls.push(call);
    const response = await globalThis.fetch(
      url,
      init.body === undefined ? init : { ...init, body: rewrite(init.body) },
    );
    call.status = response.status;
    call.requestId = response.headers.get('x-request-id');
    return response;
  };
  return { fetch, calls };
}
