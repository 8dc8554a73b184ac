import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { counted } from '../admin/counted.js';
import type { Operator } from '../operators/operator.js';
import { packageFile } from '../package-files.js';

/** `packages/server/assets/console/`. */
const VIEWS = packageFile('assets/console/');

/** Escapes every `<%= %>` value (the default): what an integrator or operator typed is shown, never run. */
const eta = new Eta({ views: VIEWS.pathname, cache: true, autoEscape: true, autoTrim: [false, 'nl'] });

/** What every page's layout reads. */
export interface PageFrame {
  title: string;
  /** The nav entry to mark as current. */
  section?: string;
  /** Signed in: the operator and the token its forms carry. */
  operator?: Operator | undefined;
  csrf?: string | undefined;
  /** A one-line outcome of the last change ("Client casino-1 disabled"). */
  notice?: string | undefined;
}

/** Helpers the templates call. */
export const format = {
  /** Every time in UTC, the zone named: `2026-11-21 12:00:00 UTC`. */
  time(iso: string | null | undefined): string {
    if (!iso) return '–';
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  },
  /**
   * A time as the console shows it, in a `<time>` element (HTML, escaped here; print it with `<%~`): the
   * style sheet keeps it on one line, so a narrow column never breaks it into "2026-" / "11-29" / … .
   */
  at(iso: string | null | undefined): string {
    if (!iso) return '–';
    return `<time datetime="${escapeHtml(iso)}">${escapeHtml(format.time(iso))}</time>`;
  },
  /** A dotted name as HTML (escaped here; print it with `<%~`), a line break allowed after each dot. */
  dotted(name: string): string {
    return name.split('.').map(escapeHtml).join('.<wbr>');
  },
  counted,
};

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/**
 * Renders a console page with the console's headers: a strict policy (its own style sheet and nothing
 * else: no script, no inline style, no other origin; forms post only to the console), never framed,
 * never cached, no referrer to other sites.
 */
export function sendPage(
  reply: FastifyReply,
  template: string,
  data: PageFrame & Record<string, unknown>,
  status = 200,
): FastifyReply {
  const html = eta.render(`./${template}`, { ...data, format });
  return (
    reply
      .code(status)
      .header('content-security-policy', CONSOLE_POLICY)
      .header('x-frame-options', 'DENY')
      // Not no-referrer: with it, browsers send `Origin: null` with the console's own forms, and the
      // Origin check refuses them. same-origin still tells no other site where the operator came from.
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

export const CONSOLE_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
