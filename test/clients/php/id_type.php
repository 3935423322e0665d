<?php
// PHP PDO (pdo_pgsql) against a table keyed by the uid type (orders) and
// the same ids in a bigint column (orders_bigint).  Prints tab-separated
// lines for the test to check against the database's id::text:
//   column TYPE EXACT N          the column fetched: gettype() of the ids, how
//                                many are the database's text
//   column_bigint TYPES          gettype() of the ids of the bigint column
//   int_size BYTES               PHP_INT_SIZE
//   json TABLE TYPES EXACT N     json_agg of the table through json_decode()
//                                with its default options: the gettype()s
//                                seen, how many ids print as the database's
//   lookup EMULATE PARAM FOUND N a lookup by id, with emulated (1) or
//                                server-side (0) prepares, bound as a
//                                string or with PDO::PARAM_INT
//
//   php id_type.php DSN
$dsn = $argv[1];
$pdo = new PDO($dsn, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);

$truth = [];
foreach ($pdo->query('SELECT item, id::text AS t FROM orders') as $row) {
	$truth[$row['item']] = $row['t'];
}

$types = [];
$exact = 0;
foreach ($pdo->query('SELECT item, id FROM orders') as $row) {
	$types[gettype($row['id'])] = true;
	$exact += ($truth[$row['item']] === (string) $row['id']) ? 1 : 0;
}
echo "column\t", implode(',', array_keys($types)), "\t$exact\t", count($truth), "\n";
// a bigint column, for comparison
$types = [];
foreach ($pdo->query('SELECT id FROM orders_bigint') as $row) {
	$types[gettype($row['id'])] = true;
}
echo "column_bigint\t", implode(',', array_keys($types)), "\n";
echo "int_size\t", PHP_INT_SIZE, "\n";

foreach (['orders', 'orders_bigint'] as $table) {
	$rows = json_decode($pdo->query("SELECT json_agg(o) FROM $table o")->fetchColumn(), true);
	$types = [];
	$exact = 0;
	foreach ($rows as $o) {
		$types[gettype($o['id'])] = true;
		// a float would print rounded (1.2135415157005E+17)
		$exact += ($truth[$o['item']] === (string) $o['id']) ? 1 : 0;
	}
	echo "json\t$table\t", implode(',', array_keys($types)), "\t$exact\t", count($rows), "\n";
}

$sample = array_slice($truth, 0, 50, true);
foreach ([1, 0] as $emulate) {
	$pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, $emulate === 1);
	foreach (['string' => PDO::PARAM_STR, 'int' => PDO::PARAM_INT] as $name => $type) {
		$st = $pdo->prepare('SELECT item FROM orders WHERE id = ?');
		$found = 0;
		foreach ($sample as $item => $id) {
			$st->bindValue(1, $name === 'int' ? (int) $id : $id, $type);
			$st->execute();
			$found += ($st->fetchColumn() === $item) ? 1 : 0;
		}
		echo "lookup\t$emulate\t$name\t$found\t", count($sample), "\n";
	}
}
