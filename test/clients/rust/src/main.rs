// tokio-postgres 0.7 against a table keyed by the uid type, with and without
// the newtype docs/clients.md gives; the protocol of the other clients: one
// JSON object of the steps and the application's JSON of the seeded rows
// (the id written as a string of its digits).
//
//   oid_tokio_postgres CONNINFO TABLE FIX(0|1)
use std::collections::BTreeMap;
use std::error::Error;

use bytes::BytesMut;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::{Client, NoTls, Row};

/// The set-up: an id read and bound as bigint's binary form, accepted for
/// the type named uid (whose OID each database chose) as well as bigint
#[derive(Debug, Clone, Copy)]
struct Uid(i64);

impl<'a> FromSql<'a> for Uid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        i64::from_sql(&Type::INT8, raw).map(Uid)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "uid" || <i64 as FromSql>::accepts(ty)
    }
}

impl ToSql for Uid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        self.0.to_sql(&Type::INT8, out)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "uid" || <i64 as ToSql>::accepts(ty)
    }
    to_sql_checked!();
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c)
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// the id of a row's column: as i64 without the set-up, as Uid with it
fn id_of(row: &Row, col: usize, fix: bool) -> Result<i64, tokio_postgres::Error> {
    if fix {
        row.try_get::<_, Uid>(col).map(|u| u.0)
    } else {
        row.try_get::<_, i64>(col)
    }
}

async fn bind(c: &Client, sql: &str, id: i64, fix: bool) -> Result<u64, tokio_postgres::Error> {
    if fix {
        c.execute(sql, &[&Uid(id)]).await
    } else {
        c.execute(sql, &[&id]).await
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (conninfo, table, fix) = (&args[1], &args[2], args[3] == "1");
    let (client, connection) = tokio_postgres::connect(conninfo, NoTls).await?;
    tokio::spawn(connection);
    let mut steps: BTreeMap<&str, String> = BTreeMap::new();
    let mut record = |name: &'static str, r: Result<(), String>| {
        steps.insert(name, r.err().unwrap_or_else(|| "ok".into()));
    };

    let ins = client
        .query_one(&*format!("INSERT INTO {table} (item) VALUES ('tokio-postgres') RETURNING id"), &[])
        .await;
    record("insert", ins.as_ref().map(|_| ()).map_err(|e| e.to_string()));
    let row = client
        .query_one(&*format!("SELECT id, id::bigint FROM {table} WHERE item = 'tokio-postgres'"), &[])
        .await?;
    let read = id_of(&row, 0, fix);
    record("read", read.as_ref().map(|_| ()).map_err(|e| e.to_string()));
    // the steps that bind the id go on with it, however it was read
    let id: i64 = row.get(1);
    let uid = Uid(id);
    let param: &(dyn ToSql + Sync) = if fix { &uid } else { &id };
    let found = client.query(&*format!("SELECT item FROM {table} WHERE id = $1"), &[param]).await;
    record(
        "lookup",
        match found {
            Ok(rows) if rows.len() == 1 && rows[0].get::<_, String>(0) == "tokio-postgres" => Ok(()),
            Ok(rows) => Err(format!("{} rows", rows.len())),
            Err(e) => Err(e.to_string()),
        },
    );
    let upd = bind(&client, &format!("UPDATE {table} SET item = 'tokio-postgres updated' WHERE id = $1"), id, fix).await;
    record("update", upd.map(|_| ()).map_err(|e| e.to_string()));
    let del = bind(&client, &format!("DELETE FROM {table} WHERE id = $1"), id, fix).await;
    record("delete", del.map(|_| ()).map_err(|e| e.to_string()));

    let mut json = Vec::new();
    let mut seeded = Ok(());
    for row in client.query(&*format!("SELECT item, id FROM {table} WHERE item LIKE 'seed %'"), &[]).await? {
        match id_of(&row, 1, fix) {
            Ok(id) => json.push(format!("{{\"item\":{},\"id\":{}}}", quote(row.get(0)), quote(&id.to_string()))),
            Err(e) => seeded = Err(e.to_string()),
        }
    }
    record("read_seeded", seeded);
    let steps_json: Vec<String> = steps.iter().map(|(k, v)| format!("{}:{}", quote(k), quote(v))).collect();
    println!(
        "{{\"steps\":{{{}}},\"json\":{}}}",
        steps_json.join(","),
        quote(&format!("[{}]", json.join(",")))
    );
    Ok(())
}
