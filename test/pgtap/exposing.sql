-- IDs that leave the database: the SQL API of the text forms, the prefixed
-- forms (TypeIDs and prefixed uid forms) and keyed masking.  Signatures, return types, argument names, volatility,
-- strictness, parallel safety, comments, privileges, the setting
-- uid.mask_key and the SQLSTATE of every error.  Runs against a server that
-- preloads uid (test/pgtap.sh).
BEGIN;
SELECT plan(166);

CREATE TEMP TABLE api (sig regprocedure, returns text, args text, volatility text, public_execute boolean);
INSERT INTO api VALUES
  ('uid_to_text(bigint)',        'text',   'id bigint',              'immutable', true),
  ('uid_from_text(text)',        'bigint', 'form text',              'immutable', true),
  ('uuid_to_text(uuid)',         'text',   'id uuid',                'immutable', true),
  ('uuid_from_text(text)',       'uuid',   'form text',              'immutable', true),
  ('uid_to_text(bigint, text)',  'text',   'id bigint, prefix text', 'immutable', true),
  ('uid_from_text(text, text)',  'bigint', 'form text, prefix text', 'immutable', true),
  ('uuid_to_typeid(uuid, text)', 'text',   'id uuid, prefix text',   'immutable', true),
  ('uuid_from_typeid(text)',     'uuid',   'typeid text',            'immutable', true),
  ('uuid_from_typeid(text, text)', 'uuid', 'typeid text, prefix text', 'immutable', true),
  ('uid_mask(bigint)',           'bigint', 'id bigint',              'stable',    false),
  ('uid_unmask(bigint)',         'bigint', 'masked bigint',          'stable',    false),
  ('uid_mask(bigint, bytea)',    'bigint', 'id bigint, key bytea',   'immutable', true),
  ('uid_unmask(bigint, bytea)',  'bigint', 'masked bigint, key bytea', 'immutable', true),
  ('uuid7_mask(uuid)',           'uuid',   'id uuid',                'stable',    false),
  ('uuid7_unmask(uuid)',         'uuid',   'masked uuid',            'stable',    false),
  ('uuid7_mask(uuid, bytea)',    'uuid',   'id uuid, key bytea',     'immutable', true),
  ('uuid7_unmask(uuid, bytea)',  'uuid',   'masked uuid, key bytea', 'immutable', true);

-- ---------------------------------------------------------------------------
-- Signatures, results, argument names (9 x 17)
-- ---------------------------------------------------------------------------
SELECT is(pg_get_function_result(sig), returns, format('%s returns %s', sig, returns)) FROM api ORDER BY sig::text;
SELECT is(pg_get_function_arguments(sig), args, format('%s takes (%s)', sig, args)) FROM api ORDER BY sig::text;
SELECT is(CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END,
          api.volatility, format('%s is %s', api.sig, upper(api.volatility)))
  FROM api JOIN pg_proc p ON p.oid = api.sig ORDER BY api.sig::text;
SELECT ok(p.proisstrict, format('%s is STRICT', api.sig)) FROM api JOIN pg_proc p ON p.oid = api.sig ORDER BY api.sig::text;
SELECT is(p.proparallel, 's', format('%s is PARALLEL SAFE', api.sig)) FROM api JOIN pg_proc p ON p.oid = api.sig ORDER BY api.sig::text;
SELECT ok(NOT p.proretset, format('%s returns one value', api.sig)) FROM api JOIN pg_proc p ON p.oid = api.sig ORDER BY api.sig::text;
SELECT ok(NOT p.prosecdef, format('%s is SECURITY INVOKER', api.sig)) FROM api JOIN pg_proc p ON p.oid = api.sig ORDER BY api.sig::text;
SELECT isnt(obj_description(sig, 'pg_proc'), NULL, format('%s has a COMMENT', sig)) FROM api ORDER BY sig::text;
-- the one-argument masking functions are an oracle for the server's key:
-- EXECUTE by grant only; the rest are safe for every role
SELECT is(has_function_privilege('public', sig, 'EXECUTE'), public_execute,
          format('%s: EXECUTE for PUBLIC is %s', sig, public_execute)) FROM api ORDER BY sig::text;

-- ---------------------------------------------------------------------------
-- The setting (4)
-- ---------------------------------------------------------------------------
SELECT is((SELECT count(*)::int FROM pg_settings WHERE name = 'uid.mask_key'), 0,
          'uid.mask_key is not in pg_settings, not even for a superuser');
SELECT is(current_setting('uid.mask_key'), '', 'uid.mask_key is empty by default');
SET LOCAL uid.mask_key = '000102030405060708090A0B0C0D0E0F';
SELECT is(current_setting('uid.mask_key'), 'AES-128 key, check value C6A13B',
          'SHOW displays the key size and check value, not the key');
SELECT is(uid_mask(1), uid_mask(1, '\x000102030405060708090a0b0c0d0e0f'),
          'uid_mask(bigint) uses uid.mask_key');

-- ---------------------------------------------------------------------------
-- Errors and their SQLSTATEs (9)
-- ---------------------------------------------------------------------------
SELECT throws_ok($$SELECT uid_from_text('0000U00000000')$$, '22P02',
                 'invalid character "U" at position 5 in uid text form "0000U00000000"',
                 'uid_from_text: a bad character raises 22P02 naming it and its position');
SELECT throws_ok($$SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FA')$$, '22P02', NULL,
                 'uuid_from_text: a short form raises 22P02');
SELECT throws_ok($$SELECT uuid_from_typeid('user_01H5FSKFSK4FPEQWNSYZ5HJ55T')$$, '22P02',
                 'invalid character "H" at position 8 in TypeID "user_01H5FSKFSK4FPEQWNSYZ5HJ55T"',
                 'uuid_from_typeid: an upper-case TypeID raises 22P02 naming the character');
SELECT throws_ok($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', 'order')$$, '22023',
                 'TypeID "user_01h5fskfsk4fpeqwnsyz5hj55t" has prefix "user", expected "order"',
                 'uuid_from_typeid: another prefix than the expected one raises 22023');
SELECT throws_ok($$SELECT uid_from_text('order_03B944H4M0C00', 'user')$$, '22023', NULL,
                 'uid_from_text(form, prefix): another prefix raises 22023');
SELECT throws_ok($$SELECT uuid_to_typeid(gen_random_uuid(), 'user_')$$, '22023',
                 'invalid prefix "user_"',
                 'uuid_to_typeid: a prefix that ends with an underscore raises 22023');
SELECT throws_ok($$SELECT uid_mask(1, '\x00')$$, '22023',
                 'a uid mask key is 16, 24 or 32 bytes, not 1',
                 'a key of the wrong length raises 22023');
SELECT throws_ok($$SELECT uuid7_mask(gen_random_uuid())$$, '22023', NULL,
                 'uuid7_mask of a v4 raises 22023');
SET LOCAL uid.mask_key = '';
SELECT throws_ok('SELECT uid_unmask(1)', '55000',
                 'uid_unmask() needs a key, and uid.mask_key is not set',
                 'no key set raises 55000');

SELECT * FROM finish();
ROLLBACK;
