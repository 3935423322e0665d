// Hibernate 3.6 and PgJDBC against a table keyed by the uid type, whose ids
// the database makes (id uid PRIMARY KEY DEFAULT uid_next()): the entity's
// id is a Long mapped with <generator class="identity"/>, which reads the
// new id through JDBC's getGeneratedKeys() (PgJDBC appends RETURNING).
//
//   java IdTypeOrders JDBC_URL USER ROWS
//
// Prints tab-separated lines for the test to check against the database:
//   saved ITEM ID          each entity saved, with the id Hibernate got
//   updated ITEM ID        the entities loaded by id (session.get) and changed
//   hql ID ITEM            a lookup by id through an HQL Long parameter
//   getObject CLASS VALUE  what PgJDBC's getObject() returns for the column
//   getLong ID             getLong() of the same value
//   getString ID
//   setString URL_SUFFIX OUTCOME   a lookup with the id bound by setString
//                          ("found ITEM" or "SQLSTATE message"), without
//                          and with stringtype=unspecified
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.Configuration;

public class IdTypeOrders
{
	public static class Order
	{
		private Long id;
		private String item;

		public Long getId() { return id; }
		public void setId(Long id) { this.id = id; }
		public String getItem() { return item; }
		public void setItem(String item) { this.item = item; }
	}

	static final String MAPPING = "<?xml version=\"1.0\"?>\n"
		+ "<!DOCTYPE hibernate-mapping PUBLIC \"-//Hibernate/Hibernate Mapping DTD 3.0//EN\"\n"
		+ "  \"http://www.hibernate.org/dtd/hibernate-mapping-3.0.dtd\">\n"
		+ "<hibernate-mapping>\n"
		+ "  <class name=\"IdTypeOrders$Order\" table=\"orders\">\n"
		+ "    <id name=\"id\" column=\"id\" type=\"long\">\n"
		+ "      <generator class=\"identity\"/>\n"
		+ "    </id>\n"
		+ "    <property name=\"item\" column=\"item\" type=\"string\"/>\n"
		+ "  </class>\n"
		+ "</hibernate-mapping>\n";

	public static void main(String[] args) throws SQLException
	{
		if (args.length != 3)
		{
			System.err.println("usage: IdTypeOrders JDBC_URL USER ROWS");
			System.exit(2);
		}
		String url = args[0], user = args[1];
		int rows = Integer.parseInt(args[2]);

		Configuration cfg = new Configuration()
			.setProperty("hibernate.connection.driver_class", "org.postgresql.Driver")
			.setProperty("hibernate.connection.url", url)
			.setProperty("hibernate.connection.username", user)
			.setProperty("hibernate.connection.pool_size", "1")
			.setProperty("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect")
			.setProperty("hibernate.hbm2ddl.auto", "none");
		cfg.addInputStream(new ByteArrayInputStream(MAPPING.getBytes(StandardCharsets.UTF_8)));
		SessionFactory factory = cfg.buildSessionFactory();

		// saved: the database's default makes each id, Hibernate reads it back
		List<Long> ids = new ArrayList<Long>();
		Session session = factory.openSession();
		Transaction tx = session.beginTransaction();
		for (int i = 0; i < rows; i++)
		{
			Order o = new Order();
			o.setItem("hibernate " + i);
			session.save(o);
			ids.add(o.getId());
			System.out.println("saved\t" + o.getItem() + "\t" + o.getId());
		}
		tx.commit();
		session.close();

		// loaded by id (a Long bound with setLong: int8) and written
		session = factory.openSession();
		tx = session.beginTransaction();
		for (int i = 0; i < ids.size(); i += 10)
		{
			Order o = (Order) session.get(Order.class, ids.get(i));
			o.setItem(o.getItem() + " updated");
			System.out.println("updated\t" + o.getItem() + "\t" + o.getId());
		}
		tx.commit();
		session.close();

		session = factory.openSession();
		for (int i = 5; i < ids.size(); i += 10)
		{
			Order o = (Order) session.createQuery("from IdTypeOrders$Order o where o.id = :id")
				.setLong("id", ids.get(i)).uniqueResult();
			System.out.println("hql\t" + ids.get(i) + "\t" + (o == null ? "(none)" : o.getItem()));
		}
		session.close();
		factory.close();

		// PgJDBC itself
		Connection c = DriverManager.getConnection(url, user, "");
		try (PreparedStatement ps = c.prepareStatement("SELECT id FROM orders WHERE id = ?"))
		{
			ps.setLong(1, ids.get(0));
			try (ResultSet rs = ps.executeQuery())
			{
				rs.next();
				Object v = rs.getObject(1);
				System.out.println("getObject\t" + v.getClass().getName() + "\t" + v);
				System.out.println("getLong\t" + rs.getLong(1));
				System.out.println("getString\t" + rs.getString(1));
			}
		}
		c.close();
		String sep = url.contains("?") ? "&" : "?";
		for (String suffix : new String[] { "", "stringtype=unspecified" })
		{
			c = DriverManager.getConnection(suffix.isEmpty() ? url : url + sep + suffix, user, "");
			String outcome;
			try (PreparedStatement ps = c.prepareStatement("SELECT item FROM orders WHERE id = ?"))
			{
				ps.setString(1, ids.get(1).toString());
				try (ResultSet rs = ps.executeQuery())
				{
					outcome = rs.next() ? "found " + rs.getString(1) : "(none)";
				}
			}
			catch (SQLException e)
			{
				outcome = e.getSQLState() + " " + e.getMessage().replaceAll("\\s+", " ");
			}
			System.out.println("setString\t" + (suffix.isEmpty() ? "(default)" : suffix) + "\t" + outcome);
			c.close();
		}
	}
}
