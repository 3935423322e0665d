// pgx v4 and lib/pq against a table keyed by the uid type, with and without
// the set-up docs/clients.md gives; the protocol of the Python clients: one
// JSON object of the steps and the application's own JSON (encoding/json)
// of the rows the test seeded.
//
//	oid_clients pgx|pq URL TABLE FIX(0|1)
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	"github.com/jackc/pgx/v4/pgxpool"
	_ "github.com/lib/pq"
)

// Order is the application's row; the id is an int64 in Go and a string of
// its digits in JSON (",string"), so that JavaScript reads it exactly
type Order struct {
	Item string `json:"item"`
	ID   int64  `json:"id,string"`
}

var steps = map[string]string{}

func step(name string, err error) bool {
	if err != nil {
		steps[name] = err.Error()
		return false
	}
	steps[name] = "ok"
	return true
}

// the set-up for pgx: the uid type, whose OID this database chose, read and
// bound as bigint's Int8, on every connection of the pool
func uidAfterConnect(ctx context.Context, conn *pgx.Conn) error {
	var oid uint32
	if err := conn.QueryRow(ctx, "SELECT 'uid'::regtype::oid").Scan(&oid); err != nil {
		return err
	}
	conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: &pgtype.Int8{}, Name: "uid", OID: oid})
	return nil
}

func runPgx(url, table string, fix bool) []Order {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(url)
	if !step("connect", err) {
		return nil
	}
	if fix {
		cfg.AfterConnect = uidAfterConnect
	}
	pool, err := pgxpool.ConnectConfig(ctx, cfg)
	if !step("connect", err) {
		return nil
	}
	defer pool.Close()
	_, err = pool.Exec(ctx, "INSERT INTO "+table+" (item) VALUES ('pgx')")
	if !step("insert", err) {
		return nil
	}
	var id int64
	if !step("read", pool.QueryRow(ctx, "SELECT id FROM "+table+" WHERE item = 'pgx'").Scan(&id)) {
		// the id as bigint, for the steps that bind it
		pool.QueryRow(ctx, "SELECT id::bigint FROM "+table+" WHERE item = 'pgx'").Scan(&id)
	}
	var any interface{}
	step("read_interface", pool.QueryRow(ctx, "SELECT id FROM "+table+" WHERE item = 'pgx'").Scan(&any))
	var item string
	step("lookup", pool.QueryRow(ctx, "SELECT item FROM "+table+" WHERE id = $1", id).Scan(&item))
	_, err = pool.Exec(ctx, "UPDATE "+table+" SET item = 'pgx updated' WHERE id = $1", id)
	step("update", err)
	_, err = pool.Exec(ctx, "DELETE FROM "+table+" WHERE id = $1", id)
	step("delete", err)
	_, err = pool.Exec(ctx, "INSERT INTO "+table+" (id, item) VALUES ($1, 'pgx explicit')", id)
	step("insert_explicit", err)
	rows, err := pool.Query(ctx, "SELECT item, id FROM "+table+" WHERE item LIKE 'seed %'")
	if !step("read_seeded", err) {
		return nil
	}
	defer rows.Close()
	var out []Order
	for rows.Next() {
		var o Order
		if !step("read_seeded", rows.Scan(&o.Item, &o.ID)) {
			return nil
		}
		out = append(out, o)
	}
	step("read_seeded", rows.Err())
	return out
}

// lib/pq sends parameters as text and reads results as text: the int64 id
// works as is; the set-up is to scan into an int64 (or a string), never
// into interface{}, which gives []byte that encoding/json writes as base64
func runPq(url, table string, fix bool) interface{} {
	db, err := sql.Open("postgres", url+"?sslmode=disable")
	if !step("connect", err) {
		return nil
	}
	defer db.Close()
	var id int64
	if !step("insert", db.QueryRow("INSERT INTO "+table+" (item) VALUES ('pq') RETURNING id").Scan(&id)) {
		return nil
	}
	var item string
	step("lookup", db.QueryRow("SELECT item FROM "+table+" WHERE id = $1", id).Scan(&item))
	step("lookup_str", db.QueryRow("SELECT item FROM "+table+" WHERE id = $1", strconv.FormatInt(id, 10)).Scan(&item))
	_, err = db.Exec("UPDATE "+table+" SET item = 'pq updated' WHERE id = $1", id)
	step("update", err)
	_, err = db.Exec("DELETE FROM "+table+" WHERE id = $1", id)
	step("delete", err)
	rows, err := db.Query("SELECT item, id FROM " + table + " WHERE item LIKE 'seed %'")
	if !step("read_seeded", err) {
		return nil
	}
	defer rows.Close()
	var typed []Order
	var generic []map[string]interface{}
	for rows.Next() {
		if fix {
			var o Order
			if !step("read_seeded", rows.Scan(&o.Item, &o.ID)) {
				return nil
			}
			typed = append(typed, o)
		} else {
			// the generic way: column values as interface{}
			var it string
			var v interface{}
			if !step("read_seeded", rows.Scan(&it, &v)) {
				return nil
			}
			generic = append(generic, map[string]interface{}{"item": it, "id": v})
		}
	}
	step("read_seeded", rows.Err())
	if fix {
		return typed
	}
	return generic
}

func main() {
	client, url, table, fix := os.Args[1], os.Args[2], os.Args[3], os.Args[4] == "1"
	var rows interface{}
	if client == "pgx" {
		rows = runPgx(url, table, fix)
	} else {
		rows = runPq(url, table, fix)
	}
	out, err := json.Marshal(rows)
	if !step("json", err) {
		out = []byte("[]")
	}
	doc, _ := json.Marshal(map[string]interface{}{"steps": steps, "json": string(out)})
	fmt.Println(string(doc))
}
