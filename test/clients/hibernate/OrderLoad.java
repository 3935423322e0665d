// Inserts rows through Hibernate 3.6 into orders-like tables whose ids come
// from org.hibernate.id.enhanced.SequenceStyleGenerator: each nextval() of
// the sequence gives the optimizer a block of increment_size ids.
//
//   java OrderLoad JDBC_URL USER TABLE SEQUENCE OPTIMIZER INCREMENT ROWS BATCH LABEL
//
// OPTIMIZER is "pooled" (a value N stands for the ids up to N) or
// "pooled-lo" (N stands for the ids from N).  Rows go out in JDBC batches
// of BATCH statements (hibernate.jdbc.batch_size), one transaction per
// batch.  Prints "inserted ROWS" and exits 0 when every row is committed.
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.Configuration;

public class OrderLoad
{
	public static class Order
	{
		private Long id;
		private String label;
		private int n;

		public Long getId() { return id; }
		public void setId(Long id) { this.id = id; }
		public String getLabel() { return label; }
		public void setLabel(String label) { this.label = label; }
		public int getN() { return n; }
		public void setN(int n) { this.n = n; }
	}

	static String mapping(String table, String sequence, String optimizer, int increment)
	{
		return "<?xml version=\"1.0\"?>\n"
			+ "<!DOCTYPE hibernate-mapping PUBLIC \"-//Hibernate/Hibernate Mapping DTD 3.0//EN\"\n"
			+ "  \"http://www.hibernate.org/dtd/hibernate-mapping-3.0.dtd\">\n"
			+ "<hibernate-mapping>\n"
			+ "  <class name=\"OrderLoad$Order\" table=\"" + table + "\">\n"
			+ "    <id name=\"id\" column=\"id\" type=\"long\">\n"
			+ "      <generator class=\"org.hibernate.id.enhanced.SequenceStyleGenerator\">\n"
			+ "        <param name=\"sequence_name\">" + sequence + "</param>\n"
			+ "        <param name=\"increment_size\">" + increment + "</param>\n"
			+ "        <param name=\"optimizer\">" + optimizer + "</param>\n"
			+ "      </generator>\n"
			+ "    </id>\n"
			+ "    <property name=\"label\" column=\"label\" type=\"string\"/>\n"
			+ "    <property name=\"n\" column=\"n\" type=\"int\"/>\n"
			+ "  </class>\n"
			+ "</hibernate-mapping>\n";
	}

	public static void main(String[] args)
	{
		if (args.length != 9)
		{
			System.err.println("usage: OrderLoad JDBC_URL USER TABLE SEQUENCE OPTIMIZER INCREMENT ROWS BATCH LABEL");
			System.exit(2);
		}
		String url = args[0], user = args[1], table = args[2], sequence = args[3];
		String optimizer = args[4];
		int increment = Integer.parseInt(args[5]);
		int rows = Integer.parseInt(args[6]);
		int batch = Integer.parseInt(args[7]);
		String label = args[8];

		Configuration cfg = new Configuration()
			.setProperty("hibernate.connection.driver_class", "org.postgresql.Driver")
			.setProperty("hibernate.connection.url", url)
			.setProperty("hibernate.connection.username", user)
			.setProperty("hibernate.connection.pool_size", "1")
			.setProperty("hibernate.dialect", "org.hibernate.dialect.PostgreSQLDialect")
			.setProperty("hibernate.jdbc.batch_size", Integer.toString(batch))
			.setProperty("hibernate.order_inserts", "true")
			.setProperty("hibernate.hbm2ddl.auto", "none");
		cfg.addInputStream(new ByteArrayInputStream(
			mapping(table, sequence, optimizer, increment).getBytes(StandardCharsets.UTF_8)));
		SessionFactory factory = cfg.buildSessionFactory();

		int done = 0;
		while (done < rows)
		{
			Session session = factory.openSession();
			Transaction tx = session.beginTransaction();
			for (int i = 0; i < batch && done < rows; i++, done++)
			{
				Order o = new Order();
				o.setLabel(label);
				o.setN(done);
				session.save(o);
			}
			session.flush();
			tx.commit();
			session.close();
		}
		factory.close();
		System.out.println("inserted " + done);
	}
}
