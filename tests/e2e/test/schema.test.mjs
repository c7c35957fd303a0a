// The client against the committed protocol schema, without a browser: every message,
// reply, prompt, event, purpose, zone and mode the schema names is known to the client
// (typed in types.js, handled or sent in the code, phrased in the UI strings). The
// browser tests add the other half: every frame the page sends validates against it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib/server.mjs';
import en from '../../../web-client/src/i18n/en.js';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'crates/protocol/schema/protocol.schema.json'), 'utf8'));
const defs = schema.$defs;
const SRC = path.join(ROOT, 'web-client/src');
const read = (/** @type {string} */ f) => fs.readFileSync(path.join(SRC, f), 'utf8');
const types = read('types.js');
const code = fs
  .readdirSync(SRC)
  .filter((f) => f.endsWith('.js') && f !== 'types.js')
  .map(read)
  .join('\n');

/** The tag values of a tagged union in the schema. @param {string} name @param {string} tag */
function tags(name, tag) {
  const out = [];
  for (const variant of defs[name].oneOf) {
    const c = variant.properties?.[tag]?.const;
    if (c) out.push(c);
  }
  assert.ok(out.length > 0, `${name} has variants`);
  return out;
}

/** Plain string enums (with or without descriptions per value). @param {string} name */
function values(name) {
  const d = defs[name];
  if (d.enum) return d.enum;
  return d.oneOf.flatMap((/** @type {any} */ v) => v.enum ?? (v.const ? [v.const] : []));
}

test('types.js describes every message, reply, prompt and event of the schema', () => {
  for (const [def, tag] of [
    ['ClientMessage', 'type'],
    ['ServerMessage', 'type'],
    ['Reply', 'type'],
    ['Prompt', 'kind'],
    ['GameEvent', 'type'],
    ['Occupant', 'type'],
    ['KingdomChoice', 'type'],
    ['SeatSetting', 'type'],
  ]) {
    for (const v of tags(def, tag)) assert.ok(types.includes(`${tag}: '${v}'`), `types.js lacks ${def} ${tag}: '${v}'`);
  }
});

test('the client sends every command and every reply kind', () => {
  for (const v of tags('ClientMessage', 'type')) assert.ok(code.includes(`type: '${v}'`), `no code sends ${v}`);
  for (const v of tags('Reply', 'type')) assert.ok(code.includes(`type: '${v}'`), `no code answers with ${v}`);
});

test('the client handles every server message, prompt kind and event', () => {
  const handled = (/** @type {string} */ v) => code.includes(`'${v}'`);
  for (const v of tags('ServerMessage', 'type')) assert.ok(handled(v), `no code reads ${v}`);
  const decision = read('decision.js');
  for (const v of tags('Prompt', 'kind')) assert.ok(decision.includes(`case '${v}'`), `no widget for ${v}`);
  const log = read('log.js');
  for (const v of tags('GameEvent', 'type')) assert.ok(log.includes(`case '${v}'`), `the log skips ${v}`);
});

test('every purpose, zone and mode has words in the UI', () => {
  for (const v of values('Purpose')) assert.ok(`dec.purpose.${v}` in en, `purpose ${v}`);
  for (const v of values('Zone')) assert.ok(`dec.from.${v}` in en, `zone ${v}`);
  for (const v of values('Mode')) assert.ok(`mode.${v}` in en, `mode ${v}`);
  for (const v of values('RoomStatus')) assert.ok(`room.status.${v}` in en, `room status ${v}`);
  for (const v of values('Phase')) assert.ok(`phase.${v}` in en, `phase ${v}`);
});
