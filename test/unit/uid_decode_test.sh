#!/usr/bin/env bash
# Unit test of the uid-decode command (tools/uid-decode/uid_decode.c), run by
# "make check-unit": arguments and standard input, every form uid writes (and
# the form read), the text and JSON output (64-bit IDs as JSON strings),
# masked forms with a key file, bad input and exit statuses.  Needs no
# server.  Prints TAP; exits non-zero if a check fails.
#
#   bash test/unit/uid_decode_test.sh ./uid-decode
set -uo pipefail
cmd=${1:?usage: uid_decode_test.sh path/to/uid-decode}
tmp=$(mktemp -d -t uid-decode-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
# run ARGS...: the command's stdout, stderr and status in $tmp/out, $tmp/err, $status
run() {
	"$cmd" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
}
has() { grep -qF -- "$1" "$tmp/$2"; }
lines() { wc -l <"$tmp/$1" | tr -d ' '; }

# every line of $tmp/out is a JSON object; prints one field per object
json_field() {
	FIELD=$1 perl -MJSON::PP -ne 'my $o = JSON::PP->new->decode($_);
		my $v = $o->{$ENV{FIELD}} // "null"; $v = $v ? "true" : "false" if JSON::PP::is_bool($v);
		print "$v\n";' <"$tmp/out"
}

# --- help, version, options
run --help
ok $(( status != 0 )) "--help exits 0"
has "--json" out && has "--key-file" out && has "Exit status" out
ok $? "--help names the options and the exit statuses"
run --version
ok $(( status != 0 )) "--version exits 0"
has "uid-decode (uid) " out
ok $? "--version names the program and the version"
run --frobnicate 1
ok $(( status != 2 )) "an unknown option exits 2"
has 'unknown option "--frobnicate"' err
ok $? "and says which"

# --- a uid, as a bigint and as its text form (the README's example)
run 120583409050324992
ok $(( status != 0 )) "a uid bigint: exit 0"
has "uid (bigint)" out && has "2026-11-29 17:55:25.049 UTC" out &&
	grep -Eq "worker id +1$" "$tmp/out" && grep -Eq "sequence +0$" "$tmp/out" &&
	grep -Eq "text +03B35Z2Z40400$" "$tmp/out"
ok $? "a uid bigint: kind, time, worker id, sequence, text form"
run 03B35Z2Z40400
ok $(( status != 0 )) "its text form: exit 0"
has "uid (13-character text form)" out && grep -Eq "uid +120583409050324992$" "$tmp/out"
ok $? "its text form: the same uid"
run 0
grep -q "2026-01-01 00:00:00.000 UTC" "$tmp/out"
ok $? "uid 0 is the epoch, 2026-01-01"

# --- UUIDs
run 017f22e2-79b0-7cc3-98c4-dc0c0c07398f 017F22E279B07CC398C4DC0C0C07398F 01FWHE4YDGFK1SHH6W1G60EECF
ok $(( status != 0 )) "a UUIDv7 in three forms: exit 0"
[ "$(grep -c "2022-02-22 19:22:22.000 UTC" "$tmp/out")" = 3 ] &&
	[ "$(grep -c "UUID v7" "$tmp/out")" = 3 ] && [ "$(grep -Ec "variant +2 \(RFC 9562\)" "$tmp/out")" = 3 ]
ok $? "each: UUID v7, its time, variant 2"
run 919108f7-52d1-4320-9bac-f847db4148a8 00000000-0000-0000-0000-000000000000
ok $(( status != 0 )) "a v4 and the nil UUID: exit 0"
has "UUID v4" out && has "version 4 has no time field" out && has "not of the RFC 9562 variant" out
ok $? "a v4 has no time; the nil UUID is not of the RFC variant"

# --- JSON
run --json 120583409050324992 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
ok $(( status != 0 )) "--json: exit 0"
[ "$(lines out)" = 2 ] && [ "$(json_field kind | tr '\n' ' ')" = "uid uuid " ]
ok $? "--json: one object per input, with the kind"
[ "$(json_field time | tr '\n' ' ')" = "2026-11-29T17:55:25.049Z 2022-02-22T19:22:22.000Z " ] &&
	[ "$(json_field worker_id | head -1)" = 1 ] && [ "$(json_field sequence | head -1)" = 0 ] &&
	[ "$(json_field version | tail -1)" = 7 ] && [ "$(json_field variant | tail -1)" = 2 ] &&
	[ "$(json_field text | head -1)" = 03B35Z2Z40400 ]
ok $? "--json: time, worker id, sequence, version, variant, text form"

# --- 64-bit IDs are JSON strings (JavaScript reads JSON numbers as doubles and
# rounds above 2^53); no number of the output has more than 15 digits
run --json 121872321425182794 0
ok $(( status != 0 )) "--json of a uid above 2^53: exit 0"
has '"uid":"121872321425182794"' out && has '"uid":"0"' out
ok $? "--json: the uid is a JSON string"
echo 2b7e151628aed2a6abf7158809cf4f3c >"$tmp/key"
run --json --key-file="$tmp/key" 7407393923982924685
has '"masked_uid":"7407393923982924685"' out && ! grep -Eq ':-?[0-9]{16,}' "$tmp/out"
ok $? "--json --key-file: the masked uid is a string too; no long number anywhere"

# --- every form uid writes, and the form read: the uid 120583409050324992 as
# uid_to_text(id, 'order') and the TypeID specification's example
run order_03B35Z2Z40400 order_line_03b35z2z40400 user_01h455vb4pex5vsknk084sn02q
ok $(( status != 0 )) "a prefixed uid form and a TypeID: exit 0"
[ "$(grep -Ec "uid +120583409050324992$" "$tmp/out")" = 2 ] &&
	has 'form       prefixed, prefix "order"' out && has 'form       prefixed, prefix "order_line"' out &&
	has 'form       typeid, prefix "user"' out &&
	grep -Eq "uuid +01890a5d-ac96-774b-bcce-b302099a8057$" "$tmp/out" &&
	has "2023-06-30 03:34:18.518 UTC" out
ok $? "prefixed form: the uid and its prefix; TypeID: the UUID, its time and its prefix"
run --json 120583409050324992 03B35Z2Z40400 order_03B35Z2Z40400 017f22e2-79b0-7cc3-98c4-dc0c0c07398f \
	017F22E279B07CC398C4DC0C0C07398F 01FWHE4YDGFK1SHH6W1G60EECF user_01fwhe4ydgfk1shh6w1g60eecf
[ "$(json_field form | tr '\n' ' ')" = "bigint text prefixed uuid hex uuid_text typeid " ] &&
	[ "$(json_field prefix | tr '\n' ' ')" = "null null order null null null user " ] &&
	[ "$(json_field uid | sort -u | tr '\n' ' ')" = "120583409050324992 null " ] &&
	[ "$(json_field uuid | sort -u | tr '\n' ' ')" = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f null " ]
ok $? "--json: the form of each of the seven forms, the prefix of the prefixed ones, one value"
run 03B35Z2Z40400 01FWHE4YDGFK1SHH6W1G60EECF 120583409050324992
[ "$(grep -c "^  form " "$tmp/out")" = 3 ] && has "form       text" out && has "form       uuid_text" out &&
	has "form       bigint" out
ok $? "the text output has a form line"
masked_text=$("$cmd" --json 7407393923982924685 | FIELD=text perl -MJSON::PP -ne 'print JSON::PP->new->decode($_)->{$ENV{FIELD}}')
run --key-file "$tmp/key" "order_$masked_text"
grep -Eq "uid +0$" "$tmp/out" && has 'masked uid (prefixed text form)' out
ok $? "--key-file: a prefixed form of a masked uid is unmasked"

# --- a number too small to be an ID uid_next() issued: a note
run 12345 120583409050324992
has "note       below 362387865600000" out && [ "$(grep -c "note " "$tmp/out")" = 1 ]
ok $? "12345 gets a note, an ID of 2026-11 none"
run --json 12345 120583409050324992
[ "$(json_field note | grep -c "first day of the uid epoch")" = 1 ] && [ "$(json_field note | tail -1)" = null ]
ok $? "--json: the note, or null"

# --- standard input: one per line, white space and empty lines
printf '  120583409050324992  \n\n01FWHE4YDGFK1SHH6W1G60EECF\r\n\t03B35Z2Z40400\n' >"$tmp/in"
"$cmd" --json <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
status=$?
ok $(( status != 0 )) "standard input: exit 0"
[ "$(lines out)" = 3 ] && [ "$(json_field input | tr '\n' ' ')" = "120583409050324992 01FWHE4YDGFK1SHH6W1G60EECF 03B35Z2Z40400 " ]
ok $? "standard input: three IDs, white space and the empty line set aside"
printf 'user 120583409050324992 logged in\nuser 120583409050324993 left\n' >"$tmp/log"
grep -oE '[0-9]{15,19}' "$tmp/log" | "$cmd" >"$tmp/out" 2>"$tmp/err"
status=$?
ok $(( status != 0 )) "grep -o ... | uid-decode: exit 0"
[ "$(grep -c "uid (bigint)" "$tmp/out")" = 2 ] && grep -Eq "sequence +1$" "$tmp/out"
ok $? "grep -o ... | uid-decode: both IDs decoded"

# --- bad input: a message per bad line, the good ones still decoded, exit 1
printf '120583409050324992\n-5\nhello\n03B35Z2Z4040U\n83B35Z2Z40400\n03B35Z2Z404\n017f22e2-79b0-7cc3-98c4-dc0c0c07398\n99999999999999999999\n01FWHE4YDGFK1SHH6W1G60EECF\n' >"$tmp/in"
"$cmd" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "bad input among good: exit 1"
[ "$(grep -c "^uid-decode: " "$tmp/err")" = 7 ]
ok $? "one message per bad line (7)"
has '"-5": not a uid: uid values are never negative' err &&
	has '"hello": not an ID' err &&
	has 'invalid character "U" at position 13 in uid text form' err &&
	has 'first digit "8" of uid text form is above 7' err &&
	has 'uid text form too short: a uid text form is 13 digits, this has 11' err &&
	has 'not a UUID' err && has 'not a uid: decimal digits beyond bigint (at most 19 digits' err
ok $? "each message names the input and what is wrong"
[ "$(grep -c "^[0-9A-Z]*: " "$tmp/out")" = 2 ]
ok $? "the two good lines are still decoded"
"$cmd" --json <"$tmp/in" >"$tmp/out" 2>/dev/null
status=$?
ok $(( status != 1 )) "--json with bad input: exit 1"
[ "$(lines out)" = 9 ] && [ "$(json_field error | grep -vc '^null$')" = 7 ]
ok $? "--json with bad input: an object per line, 7 with an error"

# --- the rule that tells the forms apart: 32 hexadecimal digits are a UUID
# even when all are decimal; 13 decimal digits whose first is 0-7 are a
# bigint and a text form (uid_to_text(2^60) is 1000000000000), refused with
# both readings and the way to pick one; PostgreSQL 19's base32hex of a UUID
run --json 00000000000000000000000000000001 01900000000070008000000000000001
ok $(( status != 0 )) "32 decimal digits: exit 0"
[ "$(json_field form | tr '\n' ' ')" = "hex hex " ] &&
	[ "$(json_field uuid | tr '\n' ' ')" = "00000000-0000-0000-0000-000000000001 01900000-0000-7000-8000-000000000001 " ] &&
	[ "$(json_field version | tail -1)" = 7 ]
ok $? "32 decimal digits are a UUID (a v7 among them), never a bigint"
run 1000000000000
ok $(( status != 1 )) "13 decimal digits, the first 0-7: exit 1"
has '"1000000000000": reads as two forms: as a bigint, uid 1000000000000; as the 13-character text form of uid_to_text(), uid 1152921504606846976' err &&
	has "Hint: Say which: uid_decode('1000000000000'::bigint) or uid_decode(uid_from_text('1000000000000'))" err &&
	[ ! -s "$tmp/out" ]
ok $? "its message names both readings, the hint the calls that pick one"
run --json 1000000000000
[ "$(json_field error)" = "reads as two forms: as a bigint, uid 1000000000000; as the 13-character text form of uid_to_text(), uid 1152921504606846976" ] &&
	json_field hint | grep -qF "uid_decode('1000000000000'::bigint)"
ok $? "--json: the error and the hint, apart"
run --json 01000000000000 9000000000000
[ "$(json_field uid | tr '\n' ' ')" = "1000000000000 9000000000000 " ] && [ "$(json_field form | sort -u)" = bigint ]
ok $? "a leading zero, or a first digit 8 or 9: a bigint"
run --json 05VI5OJPM1UC7664RG60O1PPHS 05vi5ojpm1uc7664rg60o1pphs====== 05VI5OJPM1QIT2D7GD6V59QDSG 01KF7EGVDBEM7BBHJRC8FF7TJ4
ok $(( status != 0 )) "base32hex, padded or not: exit 0"
[ "$(json_field form | tr '\n' ' ')" = "base32hex base32hex base32hex uuid_text " ] &&
	[ "$(json_field uuid | tr '\n' ' ')" = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f 017f22e2-79b0-7cc3-98c4-dc0c0c07398f 017f22e2-79b0-752e-89a7-834df2a74de4 019bcee8-6dab-750e-b5c6-58621ef3ea44 " ]
ok $? "base32hex of RFC 9562's v7 example; of both alphabets, the reading that is a v7"
run 00000000000000000000000004
ok $(( status != 1 )) "26 characters of both readings, neither a v7: exit 1"
has 'reads as two forms: as the 26-character text form of uuid_to_text(), UUID 00000000-0000-0000-0000-000000000004; as base32hex' err &&
	has "uid_decode(uuid_from_text('00000000000000000000000004'))" err &&
	has "x_00000000000000000000000004, or base32hex with its padding, 00000000000000000000000004======." err
ok $? "its message names both UUIDs, the hint how to pick one"
run --json x_00000000000000000000000004 00000000000000000000000004====== x_1000000000000
[ "$(json_field form | tr '\n' ' ')" = "typeid base32hex prefixed " ] &&
	[ "$(json_field uuid | head -2 | tr '\n' ' ')" = "00000000-0000-0000-0000-000000000004 00000000-0000-0000-0000-000000000001 " ] &&
	[ "$(json_field uid | tail -1)" = 1152921504606846976 ]
ok $? "what the hints offer picks each reading"

# --- nothing to read: an empty argument, or standard input without an ID
for arg in '' '   ' "$(printf '\t\n')"; do
	run "$arg"
	ok $(( status != 1 )) "an argument of white space alone ('$arg'): exit 1"
	has 'not an ID: it is empty' err && [ ! -s "$tmp/out" ]
	ok $? "and says so on standard error"
done
run --json ''
has '"error":"not an ID: it is empty' out
ok $? "--json: an error object for it"
printf '\n  \n' | "$cmd" >"$tmp/out" 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "standard input of empty lines: exit 1"
has 'no ID on standard input' err
ok $? "and says so"
"$cmd" </dev/null >"$tmp/out" 2>"$tmp/err"
ok $(( $? != 1 )) "empty standard input: exit 1"

# prefixed forms that are neither form: what is wrong, with the words of the SQL functions
printf 'Order_03B35Z2Z40400\n_03B35Z2Z40400\norder__03B35Z2Z40400\norder_03B35Z2Z404\nuser_01H455VB4PEX5VSKNK084SN02Q\norder_83B35Z2Z40400\n' >"$tmp/in"
"$cmd" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "bad prefixed forms: exit 1"
[ "$(grep -c "^uid-decode: " "$tmp/err")" = 6 ] &&
	has '"Order_03B35Z2Z40400": invalid character "O" at position 1 in the prefix of prefixed uid text form' err &&
	has '"_03B35Z2Z40400": prefixed uid text form with a separator but no prefix' err &&
	has '"order__03B35Z2Z40400": the prefix of prefixed uid text form ends with an underscore' err &&
	has '"order_03B35Z2Z404": prefixed uid text form ends in 11 digits' err &&
	has 'invalid character "H" at position 8 in TypeID' err &&
	has '"order_83B35Z2Z40400": prefixed uid text form out of range' err
ok $? "each names the prefixed form's first problem"

# never a crash: random bytes, a long line, NUL bytes, lone characters
head -c 65536 /dev/urandom >"$tmp/in"
"$cmd" <"$tmp/in" >/dev/null 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "64 KB of random bytes: exit 1, no crash (status $status)"
head -c 1000000 /dev/zero | tr '\0' 'A' >"$tmp/in"
"$cmd" <"$tmp/in" >/dev/null 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "a line of a million characters: exit 1"
[ "$(head -1 "$tmp/err" | wc -c)" -lt 400 ]
ok $? "its message is short (the input is cut)"
printf '0000\0000000000\n\xff\xfe\n-\n' | "$cmd" >/dev/null 2>"$tmp/err"
status=$?
ok $(( status != 1 )) "NUL bytes, bytes above 127, a lone hyphen: exit 1"
has '\x00' err && has '\xFF\xFE' err
ok $? "unprintable bytes are shown escaped"

# --- masked forms with a key file (NIST's AES-128 sample key; sql/mask_test.sql's known answers)
echo 2b7e151628aed2a6abf7158809cf4f3c >"$tmp/key"
run --key-file "$tmp/key" 7407393923982924685 1a61a5b7-7874-41a4-a289-26b20db2ad65
ok $(( status != 0 )) "--key-file: masked uid and masked UUID: exit 0"
has "masked uid (bigint)" out && grep -Eq "uid +0$" "$tmp/out" &&
	has "masked UUID v4" out && grep -Eq "uuid +017f22e2-79b0-7cc3-98c4-dc0c0c07398f$" "$tmp/out" &&
	has "2022-02-22 19:22:22.000 UTC" out
ok $? "--key-file: unmasked to uid 0 and to RFC 9562's v7 example"
run --json --key-file="$tmp/key" 7407393923982924685
[ "$(json_field masked)" = true ] && [ "$(json_field uid)" = 0 ] && [ "$(json_field masked_uid)" = 7407393923982924685 ]
ok $? "--json --key-file=: masked, the masked and the plain value"
run --key-file "$tmp/key" 919108f7-52d1-4320-9bac-f847db4148a8
ok $(( status != 1 )) "--key-file: a v4 UUID not masked with the key: exit 1"
has "not made by uuid7_mask() with this key" err
ok $? "and says so"
echo 2b7e1516 >"$tmp/short"
run --key-file "$tmp/short" 1
ok $(( status != 2 )) "a key file of 8 digits: exit 2"
has "a key is 32, 48 or 64 hexadecimal digits" err && ! has "2b7e1516" err
ok $? "its message says what a key is, and does not show the key"
run --key-file "$tmp/nonexistent" 1
ok $(( status != 2 )) "a missing key file: exit 2"
run --key-file
ok $(( status != 2 )) "--key-file without a file: exit 2"

tap_done
