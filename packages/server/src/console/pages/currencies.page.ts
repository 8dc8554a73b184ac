import { listCurrencies } from '../../admin/currency-admin.js';
import { disableCurrencies, enableCurrencies } from '../../admin/operations.js';
import type { AppContext } from '../../app-context.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import { formOf, PAGE_SIZE, pageNumber, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

const CURRENCIES = '/console/currencies';

/** Currencies: every ISO 4217 code, the active ones first; activate or deactivate one. */
export function currencyRoutes(context: AppContext): ConsoleRoute[] {
  const page = async (
    reply: Parameters<typeof sendPage>[0],
    signedIn: SignedIn,
    number: number,
    extra: { code?: string; action?: string; error?: string; notice?: string } = {},
    status = 200,
  ) => {
    const all = await listCurrencies(context.db);
    const ordered = [
      ...all.filter((currency) => currency.active),
      ...all.filter((currency) => !currency.active),
    ];
    const shown = ordered.slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE);
    return sendPage(
      reply,
      'currencies',
      {
        title: 'Currencies',
        operator: signedIn.operator,
        csrf: signedIn.csrf,
        section: 'currencies',
        currencies: shown,
        activeCount: all.filter((currency) => currency.active).length,
        code: extra.code ?? '',
        // The change asked for, kept with a refused code: not reset to "activate" under the operator.
        action: extra.action ?? 'activate',
        error: extra.error,
        notice: extra.notice,
        pager: {
          page: number,
          hasNext: ordered.length > number * PAGE_SIZE,
          href: (n: number) => `${CURRENCIES}${queryString({ page: n })}`,
        },
      },
      status,
    );
  };
  return [
    {
      method: 'GET',
      url: '/currencies',
      role: 'support',
      async handler(request, reply, signedIn) {
        const query = formOf(request.query);
        const done = textField(query, 'done', 40);
        return page(reply, signedIn, pageNumber(query), {
          notice: /^(activated|deactivated) [A-Z]{3}$/.test(done)
            ? `${done.slice(-3)} ${done.split(' ')[0]}.`
            : /^(active|inactive) [A-Z]{3}$/.test(done)
              ? `Nothing changed: ${done.slice(-3)} was ${done.split(' ')[0]} already.`
              : undefined,
        });
      },
    },
    {
      method: 'POST',
      url: '/currencies',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const form = formOf(request.body);
        const code = textField(form, 'code', 3).toUpperCase();
        const activate = textField(form, 'action', 10) !== 'deactivate';
        const action = activate ? 'activate' : 'deactivate';
        if (!/^[A-Z]{3}$/.test(code)) {
          return page(
            reply,
            signedIn,
            1,
            { code, action, error: 'Three letters, an ISO 4217 code such as EUR.' },
            422,
          );
        }
        const changed = await (activate ? enableCurrencies : disableCurrencies)(signedIn.admin, {
          codes: [code],
        });
        if (!changed.ok)
          return page(
            reply,
            signedIn,
            1,
            { code, action, error: `${code} is not an ISO 4217 currency code.` },
            422,
          );
        return reply.redirect(
          signedIn.withNotice(
            `${CURRENCIES}?done=${encodeURIComponent(`${doneWord(activate, changed.value.changed.length > 0)} ${code}`)}`,
          ),
          303,
        );
      },
    },
  ];
}

/** What the redirect after a save says: what was done, or (nothing changed) what the currency was already. */
function doneWord(activate: boolean, changed: boolean): string {
  if (changed) return activate ? 'activated' : 'deactivated';
  return activate ? 'active' : 'inactive';
}
