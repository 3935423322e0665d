# uid_decode(text) and the uid-decode command read every input alike, by
# the rule of src/forms/decode.h: a few thousand inputs, random and
# structured (every form of random uids and UUIDs, UUIDs whose hexadecimal
# digits are all decimal, PostgreSQL 19's base32hex with and without its
# padding, digit strings of every length 1..40, prefixed forms, mutations,
# case changes, white space, empty), go through both; each must give the
# same form and fields, or both must refuse.  An input made from a known
# value must decode to it in the form it was made in, or, where the rule
# says it reads as two forms, be refused: never read as another value.
#
# Seeded: UID_DECODE_SEED=n repeats a run (the seed is printed).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use JSON::PP;
use UidTap;

my $seed = $ENV{UID_DECODE_SEED} // (time() ^ ($$ << 8)) % 1_000_000_007;
note "seed $seed (UID_DECODE_SEED=$seed repeats this run)";
srand($seed);

my $node = uid_node('decode_agree');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
my $cmd = $node->config_data('--bindir') . '/uid-decode';
ok(-x $cmd, "uid-decode is installed beside the server ($cmd)");

# ---- encoders, written from the specifications (not from uid's C code)

my $CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
my $BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
my $MAX_BIGINT = '9223372036854775807';

sub b32
{
	my ($bits, $alphabet) = @_;
	return join '', map { substr($alphabet, oct("0b$_"), 1) } unpack('(A5)*', $bits);
}
sub bits64 { return unpack('B64', pack('Q>', $_[0])); }
sub uid_text { return b32('0' . bits64($_[0]), $CROCKFORD); }
sub uuid_text { return b32('00' . unpack('B128', $_[0]), $CROCKFORD); }
sub uuid_base32hex { return b32(unpack('B128', $_[0]) . '00', $BASE32HEX); }
sub uuid_hex { return unpack('H32', $_[0]); }
sub uuid_36
{
	my $h = uuid_hex($_[0]);
	return join '-', substr($h, 0, 8), substr($h, 8, 4), substr($h, 12, 4),
	  substr($h, 16, 4), substr($h, 20);
}
# the value a Crockford string reads as (uid_from_text's reading), for the
# second reading of 13 decimal digits
sub crockford_value
{
	my $v = 0;
	$v = $v * 32 + index($CROCKFORD, $_) for split //, uc $_[0];
	return $v;
}

# the 16 bytes of 26 digits of $alphabet, from bit $from of their 130
sub read_bits
{
	my ($d, $alphabet, $from) = @_;
	my $bits = join '', map { sprintf '%05b', index($alphabet, $_) } split //, uc $d;
	return pack('B128', substr($bits, $from, 128));
}

sub rbits
{
	my ($n) = @_;
	my $v = 0;
	while ($n > 0)
	{
		my $k = $n > 16 ? 16 : $n;
		$v = ($v << $k) | int(rand(1 << $k));
		$n -= $k;
	}
	return $v;
}
sub rand_uid
{
	my $kind = int(rand(4));
	return rbits(63) if $kind == 0;
	return rbits(int(rand(62)) + 1) if $kind == 1;
	# an ID of the layout: a time within a few years of the epoch
	return ((rbits(38) << 22) | (rbits(10) << 12) | rbits(12));
}
sub uuid_bytes { return pack('Q>Q>', @_); }
sub rand_uuid
{
	my $kind = int(rand(6));
	my ($hi, $lo) = (rbits(64), rbits(64));
	if ($kind <= 2)
	{
		# a v7 of today's times, or of any 48-bit time
		my $ms = $kind == 0 ? 1_700_000_000_000 + rbits(36) : rbits(48);
		$hi = ($ms << 16) | (7 << 12) | rbits(12);
		$lo = (2 << 62) | rbits(62);
	}
	elsif ($kind == 3)
	{
		$hi = ($hi & ~(0xF << 12)) | (4 << 12);
		$lo = (2 << 62) | ($lo & ((1 << 62) - 1));
	}
	elsif ($kind == 4)
	{
		# every hexadecimal digit decimal, as a v7 can be
		my $h = join '', map { int(rand(10)) } 1 .. 32;
		substr($h, 12, 1) = '7' if rand() < 0.5;
		substr($h, 16, 1) = (8, 9)[ int(rand(2)) ] if rand() < 0.5;
		return pack('H32', $h);
	}
	return uuid_bytes($hi, $lo);
}
sub rand_prefix
{
	my $n = 1 + int(rand(12));
	my $p = join '', map { chr(97 + int(rand(26))) } 1 .. $n;
	substr($p, 1 + int(rand($n - 2)), 1) = "_" if $n > 2 && rand() < 0.3;
	return $p;
}

# The 16 bytes $u: a UUID of RFC 9562 (variant 0b10, version 1 to 8), and
# one of version 4 or 7, the two PostgreSQL makes.
sub rfc9562 { my $ver = unpack('C', substr($_[0], 6, 1)) >> 4; return (unpack('C', substr($_[0], 8, 1)) >> 6) == 2 && $ver >= 1 && $ver <= 8; }
sub v4_or_v7 { my $ver = unpack('C', substr($_[0], 6, 1)) >> 4; return rfc9562($_[0]) && ($ver == 4 || $ver == 7); }

# The other reading of the 26 characters $s, written for the UUID $u, as
# "form value", when the decoders take it over $u: it is a v4 or v7 UUID of
# RFC 9562 and $u is none of RFC 9562.  Empty when it is not taken or not a
# reading ($alphabet: the other form's, $from: its leading bits).
sub other_reading
{
	my ($s, $u, $alphabet, $from, $form) = @_;
	return () if rfc9562($u);
	if ($form eq 'uuid_text')
	{
		# Crockford's base 32 reads I and L as 1, O as 0
		($s = uc $s) =~ tr/ILO/110/;
		return () unless $s =~ /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
	}
	else
	{
		return () unless $s =~ /^[0-9A-V]{26}$/i && index($BASE32HEX, uc substr($s, -1)) % 4 == 0;
	}
	my $o = read_bits($s, $alphabet, $from);
	return v4_or_v7($o) ? ("$form " . uuid_36($o)) : ();
}

# ---- the inputs, each with what it must read as
#
# must: "form value" (value: the uid in decimal, or the UUID 8-4-4-4-12);
# oneof: a list of such, or a refusal; refuse: a refusal; none: the two
# must only agree.

my @cases;
sub add { push @cases, { input => $_[0], @_[ 1 .. $#_ ] }; }

# the decimal digits $d: the rule's answer
sub decimal_expect
{
	my ($d) = @_;
	my $len = length $d;
	if ($len == 32)
	{
		return (must => 'hex ' . uuid_36(pack('H32', $d)));
	}
	if ($len == 26)
	{
		my @both;
		push @both, 'uuid_text ' . uuid_36(read_bits($d, $CROCKFORD, 2)) if $d =~ /^[0-7]/;
		push @both, 'base32hex ' . uuid_36(read_bits($d, $BASE32HEX, 0)) if $d =~ /[048]$/;
		return @both ? (oneof => \@both) : (refuse => 1);
	}
	return (refuse => 1) if $len > 19 || ($len == 19 && $d gt $MAX_BIGINT);
	my $v = $d + 0;
	if ($len == 13 && $d =~ /^[0-7]/ && crockford_value($d) != $v)
	{
		return (refuse => 1);
	}
	return (must => "bigint $v");
}

# the examples that were read wrongly: a 32-hex UUID read as the bigint 1, a
# v7 whose hexadecimal digits are all decimal refused as beyond bigint, the
# text form of 2^60 read as the decimal 10^12
add('00000000000000000000000000000001', must => 'hex 00000000-0000-0000-0000-000000000001');
add('01900000000070008000000000000001', must => 'hex 01900000-0000-7000-8000-000000000001');
add(uid_text(1 << 60), refuse => 1);
is(uid_text(1 << 60), '1000000000000', 'uid_to_text(2^60) is 1000000000000');
add('', refuse => 1);
add(' ', refuse => 1);
add("\t \n", refuse => 1);
add('05VI5OJPM1UC7664RG60O1PPHS', must => 'base32hex 017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
add('05VI5OJPM1UC7664RG60O1PPHS======', must => 'base32hex 017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
add('01FWHE4YDGFK1SHH6W1G60EECF', must => 'uuid_text 017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

# digit strings of every length 1..40, with and without leading zeros
for my $len (1 .. 40)
{
	for my $i (1 .. 12)
	{
		my $d = join '', map { int(rand(10)) } 1 .. $len;
		$d = '0' x int(rand($len)) . substr($d, 0, $len - int(rand($len))) if $i > 9;
		$d = substr($d . ('0' x $len), 0, $len);
		add($d, decimal_expect($d));
		add("-$d", $d =~ /^0+$/ && $len <= 19 ? (must => 'bigint 0') : (refuse => 1));
	}
}

# every form of random uids and UUIDs; case changes, white space and
# mutations of each
my @made;
for (1 .. 160)
{
	my $id = rand_uid();
	my $t = uid_text($id);
	push @made, [ "$id", decimal_expect("$id") ];
	push @made, [ $t, $t =~ /^\d+$/ ? decimal_expect($t) : (must => "text $id") ];
	push @made, [ lc $t, $t =~ /^\d+$/ ? decimal_expect($t) : (must => "text $id") ];
	my $p = rand_prefix();
	push @made, [ "${p}_$t", must => "prefixed $id" ];

	my $u = rand_uuid();
	my $v = uuid_36($u);
	my $is_v7 = (unpack('C', substr($u, 6, 1)) >> 4) == 7 && (unpack('C', substr($u, 8, 1)) >> 6) == 2;
	push @made, [ uuid_36($u), must => "uuid $v" ];
	push @made, [ uc uuid_36($u), must => "uuid $v" ];
	push @made, [ uuid_hex($u), must => "hex $v" ];
	push @made, [ uc uuid_hex($u), must => "hex $v" ];
	my $ut = uuid_text($u);
	my $bh = uuid_base32hex($u);
	# a 26-character form may read as two; a v7 in base32hex never does
	# (its other reading is no UUID of RFC 9562); where $u is no UUID of
	# RFC 9562, the other reading is taken if it is a v4 or v7 one
	my @ut = ("uuid_text $v", other_reading($ut, $u, $BASE32HEX, 0, 'base32hex'));
	my @bh = ("base32hex $v", other_reading($bh, $u, $CROCKFORD, 2, 'uuid_text'));
	push @made, [ $ut, oneof => \@ut ];
	push @made, [ lc $ut, oneof => \@ut ];
	push @made, [ $bh, $is_v7 ? (must => "base32hex $v") : (oneof => \@bh) ];
	push @made, [ lc $bh, $is_v7 ? (must => "base32hex $v") : (oneof => \@bh) ];
	push @made, [ "$bh======", must => "base32hex $v" ];
	push @made, [ rand_prefix() . '_' . lc $ut, must => "typeid $v" ];
}
for my $m (@made)
{
	my ($in, @expect) = @$m;
	add($in, @expect);
	my @ws = (' ', "\t", "\n", "\r\n", '  ');
	add($ws[ int(rand(@ws)) ] . $in . $ws[ int(rand(@ws)) ], @expect) if rand() < 0.3;
	# a mutation: a character changed, dropped, doubled or added; case swapped
	my $x = $in;
	my $pos = int(rand(length $x));
	my $kind = int(rand(6));
	my @chars = (0 .. 9, 'A' .. 'Z', 'a' .. 'z', '_', '-', '=', ' ', '+', 'U', 'u', "\x{e9}");
	if ($kind == 0) { substr($x, $pos, 1) = $chars[ int(rand(@chars)) ] }
	elsif ($kind == 1) { substr($x, $pos, 1) = '' }
	elsif ($kind == 2) { substr($x, $pos, 0) = substr($x, $pos, 1) }
	elsif ($kind == 3) { substr($x, $pos, 0) = $chars[ int(rand(@chars)) ] }
	elsif ($kind == 4) { $x = join '', map { rand() < 0.5 ? uc : lc } split //, $x }
	else { $x = substr($x, 0, $pos) }
	add($x, none => 1);
}
# random strings of the alphabets that meet at 13 and 26 characters
for (1 .. 300)
{
	my $len = (13, 26, 26, 32, 12 + int(rand(20)))[ int(rand(5)) ];
	my $alpha = ($CROCKFORD, $BASE32HEX, '0123456789', '0123456789abcdef', "${BASE32HEX}WXYZ=")[ int(rand(5)) ];
	add(join('', map { substr($alpha, int(rand(length $alpha)), 1) } 1 .. $len), none => 1);
}
note scalar(@cases) . ' inputs';

# ---- through uid_decode(text): one row per input, a refusal as its SQLSTATE

my $file = "${PostgreSQL::Test::Utils::tmp_check}/decode_inputs.txt";
open my $fh, '>', $file or die "$file: $!";
binmode $fh;
for my $i (0 .. $#cases)
{
	my $bytes = $cases[$i]{input};
	utf8::encode($bytes);
	print $fh "$i\t" . unpack('H*', $bytes) . "\n";
}
close $fh;
chmod 0644, $file;
my $sql_out = $node->safe_psql('postgres', qq{
	CREATE TABLE inputs (n int, hex text);
	COPY inputs FROM '$file';
	CREATE FUNCTION try_decode(s text) RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE
		r record;
	BEGIN
		SELECT * INTO r FROM uid_decode(s);
		RETURN concat_ws('|', r.form, r.prefix, r.id, r.uuid,
			floor(extract(epoch FROM r.ts) * 1000)::bigint, r.worker_id, r.sequence,
			r.version, r.variant);
	EXCEPTION WHEN OTHERS THEN
		RETURN 'refused ' || SQLSTATE;
	END
	\$\$;
	SELECT n || ' ' || try_decode(convert_from(decode(hex, 'hex'), 'UTF8')) FROM inputs ORDER BY n;
});
my %sql = map { /^(\d+) (.*)$/ ? ($1 => $2) : () } split /\n/, $sql_out;
is(scalar(keys %sql), scalar(@cases), 'uid_decode(text) answered every input');

# ---- through uid-decode --json, as arguments, 400 at a time

my %cli;
my $json = JSON::PP->new;
sub cli_lines
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $cmd, '--json', '--', @args ], '>', \$out, '2>', \$err);
	return split /\n/, $out;
}
my $cli_short = 0;
for (my $from = 0; $from < @cases; $from += 400)
{
	my $to = $from + 399 > $#cases ? $#cases : $from + 399;
	my @args = map { my $b = $cases[$_]{input}; utf8::encode($b); $b } $from .. $to;
	my @lines = cli_lines(@args);
	if (@lines != @args)
	{
		# one line per input is the promise; to compare anyway, one at a time
		$cli_short++;
		@lines = map { (cli_lines($_))[0] // '{"no_output":true}' } @args;
	}
	for my $i (0 .. $#lines)
	{
		my $o = $json->decode($lines[$i]);
		my $r;
		if (exists $o->{error}) { $r = 'refused' }
		elsif ($o->{no_output}) { $r = 'no output' }
		else
		{
			$r = join '|', grep { defined && $_ ne '' } $o->{form}, $o->{prefix}, $o->{uid},
			  $o->{uuid}, $o->{unix_ms}, $o->{worker_id}, $o->{sequence}, $o->{version},
			  $o->{variant};
		}
		$cli{ $from + $i } = $r;
	}
}
is($cli_short, 0, 'uid-decode --json printed one line per input');

# ---- compare

sub show { my $s = $_[0]; $s =~ s/([^\x20-\x7e])/sprintf '\\x{%x}', ord $1/ge; return "\"$s\""; }

my (@disagree, @wrong);
for my $i (0 .. $#cases)
{
	my $c = $cases[$i];
	my $s = $sql{$i} // 'missing';
	my $l = $cli{$i} // 'missing';
	my $s_refused = $s =~ /^refused/;
	push @disagree, show($c->{input}) . ": uid_decode(text) $s, uid-decode $l"
	  if ($s_refused ? 'refused' : $s) ne $l;
	push @wrong, show($c->{input}) . ": refused with $s, not 22P02"
	  if $s_refused && $s ne 'refused 22P02';
	my ($form, $value) = $s_refused ? ('refused', '') : (split /\|/, $s)[ 0, 1 ];
	# the value: the uid or UUID, after a prefix
	($value) = grep { /^\d+$/ || /^[0-9a-f-]{36}$/ } (split /\|/, $s)[ 1, 2 ] unless $s_refused;
	my $got = $s_refused ? 'refused' : "$form $value";
	if ($c->{must} && $got ne $c->{must})
	{
		push @wrong, show($c->{input}) . ": $got, must be $c->{must}";
	}
	elsif ($c->{refuse} && !$s_refused)
	{
		push @wrong, show($c->{input}) . ": $got, must be refused";
	}
	elsif ($c->{oneof} && !$s_refused && !grep { $_ eq $got } @{ $c->{oneof} })
	{
		push @wrong, show($c->{input}) . ": $got, must be one of " . join(', ', @{ $c->{oneof} })
		  . ' or refused';
	}
}
my %forms;
$forms{ $sql{$_} =~ /^refused/ ? 'refused' : (split /\|/, $sql{$_})[0] }++ for keys %sql;
note 'read as: ' . join(', ', map { "$_ $forms{$_}" } sort keys %forms);
is(scalar(@disagree), 0, 'uid_decode(text) and uid-decode agree on all ' . scalar(@cases) . ' inputs')
  or diag(join "\n", grep { defined } @disagree[ 0 .. 19 ]);
is(scalar(@wrong), 0, 'every input made from a value reads as it, or is refused where the rule says two forms')
  or diag(join "\n", grep { defined } @wrong[ 0 .. 19 ]);

# ---- the refusals of two forms name both readings and how to pick one
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	"\\set VERBOSITY verbose\nSELECT * FROM uid_decode('1000000000000')");
like($stderr, qr/22P02.*uid 1000000000000.*uid 1152921504606846976.*HINT:.*uid_decode\('1000000000000'::bigint\).*uid_decode\(uid_from_text\('1000000000000'\)\)/s,
	'13 decimal digits: 22P02, both readings, the calls that pick one');
my ($out, $err) = ('', '');
IPC::Run::run([ $cmd, '1000000000000' ], '>', \$out, '2>', \$err);
like($err, qr/uid 1000000000000.*uid 1152921504606846976.*Hint:.*::bigint/s,
	'uid-decode says the same');

# ---- PostgreSQL 19 and later write base32hex themselves (encode() of a
# uuid cast to bytea): it is what the encoder above writes, and reads back
if ($node->pg_version >= 19)
{
	my @u = map { uuid_36(rand_uuid()) } 1 .. 50;
	my $list = join ',', map { "'$_'::uuid" } @u;
	my $got = $node->safe_psql('postgres', qq{
		SELECT u, encode(u::bytea, 'base32hex'),
		       (SELECT form || ' ' || uuid FROM uid_decode(encode(u::bytea, 'base32hex')))
		FROM unnest(ARRAY[$list]) u});
	my @bad;
	for my $line (split /\n/, $got)
	{
		my ($u, $enc, $padded) = split /\|/, $line;
		(my $hex = $u) =~ tr/-//d;
		push @bad, $line
		  if $enc ne uuid_base32hex(pack('H32', $hex)) . '======'
		  || $padded ne "base32hex $u";
	}
	is(scalar(@bad), 0, "PostgreSQL's own base32hex of 50 UUIDs is the encoder's, and its padded form reads back")
	  or diag(join "\n", @bad[ 0 .. 4 ]);
}

$node->stop;
done_testing();
