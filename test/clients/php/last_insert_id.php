<?php
// Inserts one row through PHP's PDO (pdo_pgsql) and prints, tab-separated:
// the marker, lastInsertId() and lastInsertId(SEQUENCE).
//
//   php last_insert_id.php DSN TABLE SEQUENCE MARKER EMULATE [OTHER_TABLE]
//
// EMULATE is 1 for PDO's emulated prepares, 0 for server-side prepared
// statements.  With OTHER_TABLE, a row goes into that table after the row
// into TABLE: lastInsertId() (lastval()) then follows OTHER_TABLE's
// sequence, lastInsertId(SEQUENCE) (currval()) stays on SEQUENCE.
[$dsn, $table, $sequence, $marker, $emulate] = array_slice($argv, 1, 5);
$other = $argv[6] ?? null;

$pdo = new PDO($dsn, null, null, [
	PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
	PDO::ATTR_EMULATE_PREPARES => $emulate === '1',
]);
$st = $pdo->prepare("INSERT INTO $table (marker) VALUES (?)");
$st->execute([$marker]);
if ($other !== null) {
	$st = $pdo->prepare("INSERT INTO $other (marker) VALUES (?)");
	$st->execute([$marker]);
}
echo $marker, "\t", $pdo->lastInsertId(), "\t", $pdo->lastInsertId($sequence), "\n";
