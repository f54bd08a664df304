/**
 * Google's REST APIs (Sheets, Apps Script, Drive) with the credentials `npx clasp login` saved,
 * for the operator commands that do what clasp has no command for. clasp keeps them in
 * ~/.clasprc.json (`--auth FILE` or the CLASPRC environment variable name another file): clasp 3
 * as `tokens.default`, clasp 2 as `token` with `oauth2ClientSettings`. The access token is
 * refreshed with the refresh token on every run; nothing is written back.
 *
 * CRC_RATES_GOOGLE_API_BASE (tests only) sends every call to one local address instead, with the
 * real paths: /token, /v4/spreadsheets…, /v1/projects…, /drive/v3/files….
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function endpoints(env = process.env) {
  const base = env.CRC_RATES_GOOGLE_API_BASE?.replace(/\/+$/, '');
  return {
    token: base ? `${base}/token` : 'https://oauth2.googleapis.com/token',
    sheets: base ? `${base}/v4` : 'https://sheets.googleapis.com/v4',
    script: base ? `${base}/v1` : 'https://script.googleapis.com/v1',
    drive: base ? `${base}/drive/v3` : 'https://www.googleapis.com/drive/v3',
  };
}

export function credentialsFile(auth, env = process.env) {
  return auth ?? env.CLASPRC ?? path.join(os.homedir(), '.clasprc.json');
}

/** The client and refresh token clasp saved, in either of its formats. */
export function readCredentials(file) {
  let saved;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the clasp credentials in ${file} (${error.code ?? error.message}): run npx clasp login first`);
  }
  const v3 = saved?.tokens?.default;
  if (v3?.refresh_token && v3.client_id && v3.client_secret) return { clientId: v3.client_id, clientSecret: v3.client_secret, refreshToken: v3.refresh_token };
  const v2 = saved?.token;
  const client = saved?.oauth2ClientSettings;
  if (v2?.refresh_token && client?.clientId && client.clientSecret)
    return { clientId: client.clientId, clientSecret: client.clientSecret, refreshToken: v2.refresh_token };
  throw new Error(`${file} holds no clasp login with a refresh token: run npx clasp login`);
}

/** A client whose `call(method, url, body)` sends JSON with a fresh access token and returns the parsed answer. */
export async function googleClient(credentials, api = endpoints()) {
  const tokenAnswer = await fetch(api.token, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      refresh_token: credentials.refreshToken,
    }),
  });
  const token = await tokenAnswer.json().catch(() => ({}));
  if (!tokenAnswer.ok || typeof token.access_token !== 'string') {
    throw new Error(`Google refused to refresh the clasp login (${tokenAnswer.status} ${token.error ?? ''}): run npx clasp login again`);
  }
  return {
    async call(method, url, body) {
      const answer = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token.access_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      let parsed = {};
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new Error(`${method} ${url}: ${answer.status}, an answer that is not JSON`);
        }
      }
      if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${parsed?.error?.message ?? ''}`.trim());
      return parsed;
    },
  };
}
