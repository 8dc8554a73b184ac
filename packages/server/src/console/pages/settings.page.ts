import { changeSettings } from '../../admin/operations.js';
import { listSettings } from '../../admin/setting-admin.js';
import type { AppContext } from '../../app-context.js';
import { lockSettings } from '../../settings/setting.repository.js';
import {
  parseSetting,
  SETTING_DEFINITIONS,
  SETTING_NAMES,
  type SettingName,
} from '../../settings/settings.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import {
  CHANGED_MEANWHILE,
  changedSinceShown,
  fingerprintOf,
  formOf,
  ownEntry,
  refusedAsChanged,
  savedMeanwhile,
  textField,
  unchangedSinceShown,
} from '../form.js';
import { sendPage } from '../render.js';
import { sentence } from './client-form.js';

/** What a save just done says on the page (`?done=…`). */
const DONE: Record<string, string> = {
  saved: 'Saved; every instance uses it within a second.',
  unchanged: 'Nothing changed: every setting was already so.',
};

/** Settings: every setting with its default and what it means; change several at once, all or none. */
export function settingRoutes(context: AppContext): ConsoleRoute[] {
  const page = async (
    reply: Parameters<typeof sendPage>[0],
    signedIn: SignedIn,
    extra: { typed?: Record<string, string>; errors?: Record<string, string>; notice?: string } = {},
    status = 200,
  ) => {
    const settings = await listSettings(context.db);
    return sendPage(
      reply,
      'settings',
      {
        title: 'Settings',
        operator: signedIn.operator,
        csrf: signedIn.csrf,
        section: 'settings',
        shown: fingerprintOf(storedValues(settings)),
        settings: settings.map((setting) => ({
          ...setting,
          typed: extra.typed?.[setting.name] ?? setting.value,
          // A yes-or-no setting is a choice of its two values, not a box to type "true" into.
          options: isBooleanSetting(setting.name) ? BOOLEAN_OPTIONS : undefined,
        })),
        errors: {
          ...extra.errors,
          // Refused as saved meanwhile: what is stored now, under each setting it differs in.
          ...(extra.typed && extra.errors?.form === CHANGED_MEANWHILE
            ? savedMeanwhile(extra.typed, Object.fromEntries(storedValues(settings)))
            : {}),
        },
        notice: extra.notice,
      },
      status,
    );
  };
  return [
    {
      method: 'GET',
      url: '/settings',
      role: 'support',
      handler: async (request, reply, signedIn) =>
        page(reply, signedIn, {
          notice: ownEntry(DONE, textField(formOf(request.query), 'done', 9)),
        }),
    },
    {
      method: 'POST',
      url: '/settings',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const form = formOf(request.body);
        const listed = await listSettings(context.db);
        const current = new Map(listed.map((setting) => [setting.name, setting.value]));
        const typed: Record<string, string> = {};
        const errors: Record<string, string> = {};
        const changed: Record<string, string> = {};
        for (const name of SETTING_NAMES) {
          const text = textField(form, name, 32);
          typed[name] = text;
          const parsed = parseSetting(name, text);
          if (!parsed.ok) errors[name] = sentence(parsed.reason);
          else if (parsed.value !== current.get(name)) changed[name] = parsed.value;
        }
        if (changedSinceShown(form, storedValues(listed))) {
          return page(reply, signedIn, { typed, errors: { form: CHANGED_MEANWHILE } }, 409);
        }
        if (Object.keys(errors).length > 0) return page(reply, signedIn, { typed, errors }, 422);
        // Sent as stored: nothing written, nothing recorded, and said so (as the client forms do).
        if (Object.keys(changed).length === 0)
          return reply.redirect(signedIn.withNotice('/console/settings?done=unchanged'), 303);
        const saved = await changeSettings(
          signedIn.admin,
          { values: changed },
          unchangedSinceShown(form, async (trx) => {
            await lockSettings(trx);
            return storedValues(await listSettings(trx));
          }),
        );
        if (refusedAsChanged(saved)) {
          return page(reply, signedIn, { typed, errors: { form: CHANGED_MEANWHILE } }, 409);
        }
        if (!saved.ok) return page(reply, signedIn, { typed, errors: { form: saved.reason } }, 422);
        return reply.redirect(signedIn.withNotice('/console/settings?done=saved'), 303);
      },
    },
  ];
}

const BOOLEAN_OPTIONS = [
  ['true', 'true'],
  ['false', 'false'],
] as const;

function isBooleanSetting(name: SettingName): boolean {
  return typeof SETTING_DEFINITIONS[name].defaultValue === 'boolean';
}

/** What the settings form is filled from: each setting's stored value. */
function storedValues(settings: readonly { name: string; value: string }[]): [string, string][] {
  return settings.map((setting) => [setting.name, setting.value]);
}
