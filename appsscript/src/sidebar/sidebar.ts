/**
 * The settings sidebar's script (runs in the browser, inlined into Sidebar.html by the build).
 * It talks to the server functions of `rpc.ts` through google.script.run and never holds the
 * saved key: the server sends its masked form only, and a pasted key leaves the input as soon
 * as it is saved. With a key saved, it shows this month's usage as a meter (from /usage), and a
 * notice when some cells show the last known good copy instead of a fresh answer. It lists the
 * currencies the functions take, named in the sheet's language.
 */
import { currencyList } from '../currency-names';
import type { StaleView } from '../lastgood';
import { formatUtc, messages, type Locale } from '../messages';
import type { ConnectionView } from '../rpc';
import type { SettingsForm, SettingsView } from '../settings';

interface Runner {
  withSuccessHandler(handler: (value: never) => void): Runner;
  withFailureHandler(handler: (error: unknown) => void): Runner;
  getSettings(): void;
  saveSettings(form: SettingsForm): void;
  testConnection(form: SettingsForm): void;
  getUsage(): void;
  removeKey(): void;
}

declare const google: { script: { run: Runner } };

type ServerFunction = 'getSettings' | 'saveSettings' | 'testConnection' | 'getUsage' | 'removeKey';

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
  const quota = $('quota');
  const meter = $<HTMLMeterElement>('meter');
  const buttons = [$<HTMLButtonElement>('save'), $<HTMLButtonElement>('test'), $<HTMLButtonElement>('remove')];
  key.placeholder = t.keyPlaceholder;

  const say = (text: string, kind: 'ok' | 'error' | '' = '') => {
    message.textContent = text;
    message.className = kind;
    if (kind === 'error') message.setAttribute('role', 'alert');
    else message.removeAttribute('role');
  };

  const number = (n: number) => n.toLocaleString(locale === 'es' ? 'es-CR' : 'en-US');

  /** Rows of a definition list, as text (never markup). */
  const definitions = (rows: ReadonlyArray<readonly [string, string]>): HTMLElement[] =>
    rows.flatMap(([label, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.textContent = value;
      return [dt, dd];
    });

  $('currencyList').replaceChildren(...definitions(currencyList(locale).map((c) => [c.code, c.name] as const)));

  const showStale = (stale: StaleView | null) => {
    $('stale').hidden = !stale;
    if (stale) $('staleBody').textContent = t.staleBody(stale.count, formatUtc(stale.oldestSavedAt), stale.reason);
  };

  /** The meter: used of the monthly quota, what is left and when it resets, exactly as /usage says. */
  const showQuota = (c: ConnectionView) => {
    meter.max = Math.max(c.monthlyQuota, 1);
    meter.value = Math.min(c.used, meter.max);
    // Amber from three quarters used, red from nine tenths; less is better.
    meter.low = meter.max * 0.75;
    meter.high = meter.max * 0.9;
    meter.optimum = 0;
    meter.title = `${number(c.used)} / ${number(c.monthlyQuota)}`;
    const share = c.monthlyQuota > 0 ? Math.min(1, c.used / c.monthlyQuota) : 1;
    // A tenth of a percent below 10 %, so that a little use does not read as none.
    $('quotaPercent').textContent = share.toLocaleString(locale === 'es' ? 'es-CR' : 'en-US', {
      style: 'percent',
      maximumFractionDigits: share > 0 && share < 0.1 ? 1 : 0,
    });
    $('quotaUsed').textContent = `${t.quotaUsed(number(c.used), number(c.monthlyQuota))} · ${t.quotaLeft(number(c.remaining))}`;
    $('quotaResets').textContent = t.quotaResets(c.resetsOn);
    meter.hidden = false;
    quota.hidden = false;
  };

  const quotaMessage = (text: string) => {
    meter.hidden = true;
    $('quotaPercent').textContent = '';
    $('quotaUsed').textContent = text;
    $('quotaResets').textContent = '';
    quota.hidden = false;
  };

  /** Reads this month's usage of the saved key (no buttons wait for it: it is only information). */
  const loadUsage = async () => {
    quotaMessage(t.quotaLoading);
    try {
      showQuota(await call<ConnectionView>('getUsage'));
    } catch (error) {
      quotaMessage(t.quotaUnavailable(errorText(error, t.networkError)));
    }
  };

  const render = (v: SettingsView) => {
    showStale(v.stale);
    if (!v.hasKey) quota.hidden = true;
    status.textContent = v.hasKey && v.maskedKey ? t.keySaved(v.maskedKey) : t.noKeySaved;
    status.className = v.hasKey ? 'status ok' : 'status';
    key.placeholder = v.maskedKey ?? t.keyPlaceholder;
    baseUrl.placeholder = v.defaultBaseUrl;
    baseUrl.value = v.baseUrl;
    if (v.baseUrl) $<HTMLDetailsElement>('advanced').open = true;
    $<HTMLButtonElement>('remove').hidden = !v.hasKey;
  };

  /** What a connection test adds to the meter: the plan and the per-minute rate. */
  const showUsage = (c: ConnectionView) => {
    const rows: Array<[string, string]> = [
      [t.plan, c.planLabel],
      [t.perMinute, number(c.ratePerMinute)],
    ];
    usage.replaceChildren(...definitions(rows));
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
      if (v.hasKey) void loadUsage();
    });
  });
  $('test').addEventListener('click', () => {
    usage.hidden = true;
    void run<ConnectionView>('testConnection', formValue(), (c) => {
      showUsage(c);
      showQuota(c);
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
  if (view) {
    render(view);
    if (view.hasKey) void loadUsage();
  } else
    void run<SettingsView>('getSettings', undefined, (v) => {
      render(v);
      say('');
      if (v.hasKey) void loadUsage();
    });
}

const boot = readBoot();
start(boot, boot?.locale ?? (/^es\b/i.test(navigator.language) ? 'es' : 'en'));
