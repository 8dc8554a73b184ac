import { describe, expect, it } from 'vitest';
import { compareShown, jsonDocuments } from './shown-output.js';

const json = (text: string) => ({ kind: 'json' as const, line: 1, text });

describe('compareShown', () => {
  const shown = json(`{
  "id": "4f0c2a7e9b1d4c3a8e6f5a2b1c0d9e8f",
  "url": "http://127.0.0.1:8080/play?auth=9e107d9d372bb6826bd81d3542a419d6&lang=en",
  "auth": "9e107d9d372bb6826bd81d3542a419d6",
  "session": "0b6f3d4e-2c1a-4f7b-9e8d-5a6b7c8d9e0f",
  "meta": { "expiresAt": "2026-11-21T12:10:00.000Z", "count": 0 }
}`);
  const printed = (auth: string, other = auth) =>
    JSON.stringify({
      meta: { count: 0, expiresAt: '2027-01-02T03:04:05.678Z' },
      session: '11111111-2222-4333-8444-555555555555',
      auth,
      url: `http://127.0.0.1:8080/play?auth=${other}&lang=en`,
      id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    });

  it('takes ids, tokens, UUIDs and times of the shown shape for any value of it, members in any order', () => {
    expect(compareShown([shown], printed('0123456789abcdef0123456789abcdef'))).toEqual([]);
  });

  it('holds one shown value to one printed value throughout the output', () => {
    const problems = compareShown(
      [shown],
      printed('0123456789abcdef0123456789abcdef', 'ffffffffffffffffffffffffffffffff'),
    );
    expect(problems).toHaveLength(1);
    expect(problems.join()).toContain('/auth: shows "9e107d9d372bb6826bd81d3542a419d6"');
  });

  it('names every member that differs, is missing or is extra', () => {
    const problems = compareShown(
      [json('{"nick":"Player1","tableId":42,"gone":1}')],
      '{"nick":"Ace12345","tableId":null,"extra":true}',
    ).join();
    expect(problems).toContain('/nick: shows "Player1", prints "Ace12345"');
    expect(problems).toContain('/tableId: shows 42, prints null');
    expect(problems).toContain('/gone: shown, not printed');
    expect(problems).toContain('/extra: printed, not shown');
  });

  it('compares each JSON document printed with the one shown', () => {
    expect(compareShown([json('{"a":"…"}')], '{"a":"x"}{"a":"y"}')).toEqual([]);
    expect(compareShown([json('{"a":1}')], '{"a":1}{"a":2}')).toHaveLength(1);
    expect(compareShown([json('{"a":1}')], '')).toHaveLength(1);
  });

  it('reads curl -i: the status line, the headers shown among those printed, then the body', () => {
    const http = {
      kind: 'http' as const,
      line: 1,
      text: 'HTTP/1.1 201 Created\nlocation: /s/7972ace4c65de7e10489c1d5e7d44204\ncache-control: no-store',
    };
    const body = json('{"id":"/s/7972ace4c65de7e10489c1d5e7d44204"}');
    const id = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    const head = `HTTP/1.1 201 Created\r\nLocation: /s/${id}\r\ndate: now\r\ncache-control: no-store\r\n\r\n`;
    expect(compareShown([http, body], `${head}{"id":"/s/${id}"}`)).toEqual([]);
    expect(compareShown([http, body], `${head}{"id":"/s/${'c'.repeat(32)}"}`)).toHaveLength(1);
    expect(compareShown([http], head.replace('no-store', 'max-age=1'))).toHaveLength(1);
  });

  it('compares text line by line, … standing for any text within a line', () => {
    const text = {
      kind: 'text' as const,
      line: 1,
      text: 'v2 session 6f1d2c3b-5a4e-4f8d-9c7b-1a2b3c4d5e6f until 2026-11-21T12:10:00.000Z\n  open http://x/?auth=…&lang=en',
    };
    const ok =
      'v2 session 11111111-2222-4333-8444-555555555555 until 2030-01-01T00:00:00.000Z\n  open http://x/?auth=abc&lang=en\n';
    expect(compareShown([text], ok)).toEqual([]);
    expect(compareShown([text], ok.replace('lang=en', 'lang=de'))).toHaveLength(1);
    expect(compareShown([text], `${ok}one more line\n`)).toHaveLength(1);
  });
});

describe('jsonDocuments', () => {
  it('splits documents printed one after another, braces inside strings included', () => {
    expect(jsonDocuments('{"a":"}{"}\n[1,{"b":2}]')).toEqual([{ a: '}{' }, [1, { b: 2 }]]);
  });
});
