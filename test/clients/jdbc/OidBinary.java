// PgJDBC with binary transfer (prepareThreshold=-1: every statement
// server-prepared, binary results for the types binaryTransferEnable lists)
// against a table keyed by the uid type.  Without the set-up the uid type's
// OID is listed in binaryTransferEnable, as a configuration that lists every
// bigint-like type might; the set-up is not to list it (PgJDBC then reads
// the type as text, which getLong and getString parse).  The protocol of
// the other clients: one JSON object of the steps and the application's
// JSON of the seeded rows (the id written by getString, quoted).
//
//   java OidBinary JDBC_URL TABLE FIX(0|1)
import java.sql.*;
import java.util.*;

public class OidBinary {
	static Map<String, String> steps = new TreeMap<>();

	interface Step { Object run() throws Exception; }

	static Object step(String name, Step s) {
		try {
			Object r = s.run();
			steps.put(name, "ok");
			return r;
		} catch (Exception e) {
			steps.put(name, e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).split("\n")[0]);
			return null;
		}
	}

	static String quote(String s) {
		if (s == null) return "null";
		StringBuilder b = new StringBuilder("\"");
		for (char c : s.toCharArray()) {
			if (c == '"' || c == '\\') b.append('\\').append(c);
			else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
			else b.append(c);
		}
		return b.append('"').toString();
	}

	public static void main(String[] args) throws Exception {
		String url = args[0], table = args[1];
		boolean fix = args[2].equals("1");
		Properties p = new Properties();
		p.setProperty("user", "postgres");
		p.setProperty("prepareThreshold", "-1");
		if (!fix) {
			long oid;
			try (Connection c = DriverManager.getConnection(url, p);
			     ResultSet r = c.createStatement().executeQuery("SELECT 'uid'::regtype::oid")) {
				r.next();
				oid = r.getLong(1);
			}
			p.setProperty("binaryTransferEnable", Long.toString(oid));
		}
		try (Connection c = DriverManager.getConnection(url, p)) {
			step("insert", () -> {
				PreparedStatement s = c.prepareStatement("INSERT INTO " + table + " (item) VALUES ('jdbc') RETURNING id");
				ResultSet r = s.executeQuery();
				r.next();
				return r.getObject(1);
			});
			Long id = (Long) step("read", () -> {
				PreparedStatement s = c.prepareStatement("SELECT id FROM " + table + " WHERE item = 'jdbc'");
				ResultSet r = s.executeQuery();
				r.next();
				return r.getLong(1);
			});
			if (id != null) {
				step("lookup", () -> {
					PreparedStatement s = c.prepareStatement("SELECT item FROM " + table + " WHERE id = ?");
					s.setLong(1, id);
					ResultSet r = s.executeQuery();
					if (!r.next() || !r.getString(1).equals("jdbc")) throw new Exception("not found");
					return null;
				});
				step("update", () -> {
					PreparedStatement s = c.prepareStatement("UPDATE " + table + " SET item = 'jdbc updated' WHERE id = ?");
					s.setLong(1, id);
					if (s.executeUpdate() != 1) throw new Exception("no row updated");
					return null;
				});
				step("delete", () -> {
					PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?");
					s.setLong(1, id);
					if (s.executeUpdate() != 1) throw new Exception("no row deleted");
					return null;
				});
			}
			StringBuilder json = new StringBuilder("[");
			step("read_seeded", () -> {
				ResultSet r = c.prepareStatement("SELECT item, id FROM " + table + " WHERE item LIKE 'seed %'").executeQuery();
				while (r.next()) {
					if (json.length() > 1) json.append(',');
					json.append("{\"item\":").append(quote(r.getString(1))).append(",\"id\":").append(quote(r.getString(2))).append('}');
				}
				return null;
			});
			json.append(']');
			StringBuilder out = new StringBuilder("{\"steps\":{");
			boolean first = true;
			for (Map.Entry<String, String> e : steps.entrySet()) {
				if (!first) out.append(',');
				first = false;
				out.append(quote(e.getKey())).append(':').append(quote(e.getValue()));
			}
			out.append("},\"json\":").append(quote(json.toString())).append('}');
			System.out.println(out);
		}
	}
}
