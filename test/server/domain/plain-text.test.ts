/** Upstream and form text without control characters, and made visible where it is printed. */
import { hasControls, plainText, visibleControls } from '../../../server/domain/plain-text';

describe('plainText', () => {
  it('takes out C0, DEL, C1 and the bidirectional marks, one space per run, no doubled or trailing spaces', () => {
    expect(plainText('\u001b[2J\u001b[31mCasa\u0007 Roja\r\n')).toBe('[2J [31mCasa Roja');
    expect(plainText('\t=1+1')).toBe('=1+1');
    expect(plainText('Banco\u0085Nacional\u007f')).toBe('Banco Nacional');
    expect(plainText('abc\u202edcba\u2066x\u2069')).toBe('abc dcba x');
    expect(plainText('Énfasis  Cambiario, S.A.')).toBe('Énfasis Cambiario, S.A.');
  });

  it('leaves ordinary text, accents and symbols alone', () => {
    const name = 'Banco BAC San José — "Casa" ₡ <b>';
    expect(plainText(name)).toBe(name);
    expect(hasControls(name)).toBe(false);
    expect(hasControls('a\u0000b')).toBe(true);
  });
});

describe('visibleControls', () => {
  it('writes each control character as a visible escape and keeps the rest', () => {
    expect(visibleControls('\u001b]0;pwned\u0007 ok\r\nnext\tcol\u202e')).toBe('\\e]0;pwned\\x07 ok\\r\\nnext\\tcol\\u202e');
    expect(visibleControls('José ₡')).toBe('José ₡');
  });
});
