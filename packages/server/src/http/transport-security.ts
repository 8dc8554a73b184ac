import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';

/** One year: browsers remember to use https only, as for any service that is https only. */
const HSTS = 'max-age=31536000';

/** HSTS on every response when the service's public address is https; over plain http browsers ignore it. */
export function setTransportSecurity(reply: FastifyReply, config: Config): void {
  if (config.publicUrl.startsWith('https:')) reply.header('strict-transport-security', HSTS);
}
