/**
 * The settings sidebar's script (runs in the browser, inlined into Sidebar.html by the build).
 * It talks to the server functions of `rpc.ts` through google.script.run and never holds the
 * saved key: the server sends its masked form only, and a pasted key leaves the input as soon
 * as it is saved.
 */
import { messages, type Locale } from '../messages';
import type { ConnectionView } from '../rpc';
import type { SettingsForm, SettingsView } from '../settings';

interface Runner {
  withSuccessHandler(handler: (value: never) => void): Runner;
  withFailureHandler(handler: (error: unknown) => void): Runner;
  getSettings(): void;
  saveSettings(form: SettingsForm): void;
  testConnection(form: SettingsForm): void;
  removeKey(): void;
}

declare const google: { script: { run: Runner } };

type ServerFunction = 'getSettings' | 'saveSettings' | 'testConnection' | 'removeKey';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function readBoot(): SettingsView | null {
  try {
    const view = JSON.parse($('boot').textContent ?? '') as SettingsView;
    return view && typeof view === 'object' && (view.locale === 'es' || view.locale === 'en') ? view : null;
  } catch {
    // The page was opened without its template being evaluated: ask the server instead.
    return null;
  }
}

function call<T>(name: ServerFunction, arg?: SettingsForm): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const runner = google.script.run.withSuccessHandler(resolve as (value: never) => void).withFailureHandler(reject);
    if (name === 'saveSettings' || name === 'testConnection') runner[name](arg ?? {});
    else runner[name]();
  });
}

/** A server error's message as the user should read it. */
function errorText(error: unknown, networkError: string): string {
  const name = (error as { name?: unknown } | null)?.name;
  const raw =
    error instanceof Error || (error && typeof error === 'object' && 'message' in error) ? String((error as { message: unknown }).message) : String(error);
  if (name === 'NetworkError' || /^NetworkError\b|Connection failure due to HTTP/.test(raw)) return networkError;
  return raw.replace(/^(?:Exception|Error|ScriptError):\s*/, '');
}

function start(view: SettingsView | null, locale: Locale): void {
  const t = messages(locale).sidebar;
  document.documentElement.lang = locale;
  document.querySelectorAll<HTMLElement>('[data-text]').forEach((el) => {
    const text = t[el.dataset.text as keyof typeof t];
    if (typeof text === 'string') el.textContent = text;
  });
  const form = $<HTMLFormElement>('form');
  const key = $<HTMLInputElement>('key');
  const baseUrl = $<HTMLInputElement>('baseUrl');
  const status = $('status');
  const message = $('message');
  const usage = $('usage');
  const buttons = [$<HTMLButtonElement>('save'), $<HTMLButtonElement>('test'), $<HTMLButtonElement>('remove')];
  key.placeholder = t.keyPlaceholder;

  const say = (text: string, kind: 'ok' | 'error' | '' = '') => {
    message.textContent = text;
    message.className = kind;
    if (kind === 'error') message.setAttribute('role', 'alert');
    else message.removeAttribute('role');
  };

  const render = (v: SettingsView) => {
    status.textContent = v.hasKey && v.maskedKey ? t.keySaved(v.maskedKey) : t.noKeySaved;
    status.className = v.hasKey ? 'status ok' : 'status';
    key.placeholder = v.maskedKey ?? t.keyPlaceholder;
    baseUrl.placeholder = v.defaultBaseUrl;
    baseUrl.value = v.baseUrl;
    if (v.baseUrl) $<HTMLDetailsElement>('advanced').open = true;
    $<HTMLButtonElement>('remove').hidden = !v.hasKey;
  };

  const showUsage = (c: ConnectionView) => {
    const number = (n: number) => n.toLocaleString(locale === 'es' ? 'es-CR' : 'en-US');
    const rows: Array<[string, string]> = [
      [t.plan, c.planLabel],
      [t.used, `${number(c.used)} / ${number(c.monthlyQuota)}`],
      [t.remaining, number(c.remaining)],
      [t.resets, c.resetsOn],
      [t.perMinute, number(c.ratePerMinute)],
    ];
    usage.replaceChildren(
      ...rows.flatMap(([label, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = label;
        const dd = document.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
    usage.hidden = false;
  };

  const formValue = (): SettingsForm => ({ key: key.value.trim(), baseUrl: baseUrl.value.trim() });

  /** Runs one server call with the buttons disabled, and reports its failure. */
  const run = async <T>(name: ServerFunction, arg: SettingsForm | undefined, done: (value: T) => void) => {
    for (const b of buttons) b.disabled = true;
    say(t.working);
    try {
      done(await call<T>(name, arg));
    } catch (error) {
      say(errorText(error, t.networkError), 'error');
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run<SettingsView>('saveSettings', formValue(), (v) => {
      key.value = '';
      render(v);
      say(t.saved, 'ok');
    });
  });
  $('test').addEventListener('click', () => {
    usage.hidden = true;
    void run<ConnectionView>('testConnection', formValue(), (c) => {
      showUsage(c);
      say(t.connected, 'ok');
    });
  });
  $('remove').addEventListener('click', () => {
    usage.hidden = true;
    void run<SettingsView>('removeKey', undefined, (v) => {
      key.value = '';
      render(v);
      say(t.removed, 'ok');
    });
  });

  $('app').hidden = false;
  if (view) render(view);
  else
    void run<SettingsView>('getSettings', undefined, (v) => {
      render(v);
      say('');
    });
}

const boot = readBoot();
start(boot, boot?.locale ?? (/^es\b/i.test(navigator.language) ? 'es' : 'en'));
