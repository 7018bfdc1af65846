package dev.mailrun.testing;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.db.DataSources;
import dev.mailrun.db.EmbeddedMariaDb;
import dev.mailrun.db.Migrations;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * A clean, migrated database for one test class, on a real MariaDB.
 *
 * <p>By default the server is an embedded MariaDB started once per test JVM (each JVM its own), its
 * data in memory where the machine allows ({@link InMemoryDataDir}). With
 * {@code MAILRUN_TEST_DB_URL} set (e.g. {@code jdbc:mysql://127.0.0.1:3306/test}, user from
 * {@code MAILRUN_TEST_DB_USER}, default root, password from {@code MAILRUN_TEST_DB_PASSWORD},
 * default empty) that server is used instead. Each test class gets its own freshly created database,
 * dropped afterwards: a copy of a template migrated once per JVM ({@link SchemaTemplate}), or for
 * {@link #atVersion} one Flyway migrates up to that version. Every connection runs with session
 * time zone -08:00 so that code which lets the session zone leak into stored instants fails its tests.
 *
 * <pre>{@code @RegisterExtension static final TestDatabase db = new TestDatabase();}</pre>
 */
public final class TestDatabase implements BeforeAllCallback, AfterAllCallback {

    public static final String SESSION_ZONE_SQL = "SET time_zone = '-08:00'";

    private static final AtomicInteger counter = new AtomicInteger();
    private static Server server;
    private static SchemaTemplate template;

    private final List<HikariDataSource> pools = new ArrayList<>();
    private final Optional<String> targetVersion;
    private String database;
    private HikariDataSource dataSource;

    /** A database with every migration applied. */
    public TestDatabase() {
        this(Optional.empty());
    }

    private TestDatabase(Optional<String> targetVersion) {
        this.targetVersion = targetVersion;
    }

    /** A database migrated only up to {@code version}, to test a later migration on old data. */
    public static TestDatabase atVersion(String version) {
        return new TestDatabase(Optional.of(version));
    }

    /** Applies the migrations still pending; returns how many ran. */
    public int migrateToLatest() {
        return new Migrations(dataSource).migrate();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        database = "mailrun_t" + ProcessHandle.current().pid() + "_" + counter.incrementAndGet();
        try (Connection c = server().connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
            s.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        }
        if (targetVersion.isPresent()) {
            dataSource = newPool("test", 10);
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").target(targetVersion.get())
                    .load().migrate();
        } else {
            try (Connection c = server().connect()) {
                template().copyInto(c, database);
            }
            dataSource = newPool("test", 10);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        pools.forEach(HikariDataSource::close);
        pools.clear();
        try (Connection c = server().connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    /** The shared pool of this test class. */
    public HikariDataSource dataSource() {
        return dataSource;
    }

    /** A separate pool on the same database, e.g. one per simulated worker; closed after the class. */
    public synchronized HikariDataSource newPool(String name, int size) {
        HikariDataSource pool = DataSources.create(url(), server().user, server().password, size,
                "mailrun-test-" + name, Optional.of(SESSION_ZONE_SQL));
        pools.add(pool);
        return pool;
    }

    public String url() {
        return server().serverUrl + database;
    }

    public String user() {
        return server().user;
    }

    public String password() {
        return server().password;
    }

    public String databaseName() {
        return database;
    }

    /** The migrated template, made on first use and dropped when the JVM ends. */
    static synchronized SchemaTemplate template() throws SQLException {
        if (template == null) {
            String name = "mailrun_t" + ProcessHandle.current().pid() + "_template";
            try (Connection c = server().connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
            }
            try (HikariDataSource pool = DataSources.create(server().serverUrl + name, server().user, server().password,
                    2, "mailrun-test-template", Optional.of(SESSION_ZONE_SQL))) {
                new Migrations(pool).migrate();
            }
            try (Connection c = server().connect()) {
                template = SchemaTemplate.of(c, name);
            }
            Server s = server();
            if (s.shared()) {
                // The embedded server's files go with target/; a shared server keeps what is not dropped.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> s.drop(name), "test-db-template-drop"));
            }
        }
        return template;
    }

    private static synchronized Server server() {
        if (server == null) {
            server = Server.start();
        }
        return server;
    }

    private record Server(String serverUrl, String user, String password, boolean shared) {

        static Server start() {
            String url = System.getenv("MAILRUN_TEST_DB_URL");
            if (url != null && !url.isBlank()) {
                String user = Optional.ofNullable(System.getenv("MAILRUN_TEST_DB_USER")).orElse("root");
                String password = Optional.ofNullable(System.getenv("MAILRUN_TEST_DB_PASSWORD")).orElse("");
                return new Server(withoutDatabase(url), user, password, true);
            }
            // One server per test JVM: the build runs several side by side (mailrun.test.fork, set by
            // the build), and a JVM that finished must not stop a server another is still using.
            String fork = System.getProperty("mailrun.test.fork", "");
            Path dir = Path.of("target", fork.isBlank() ? "embedded-test-db" : "embedded-test-db-" + fork).toAbsolutePath();
            Optional<Path> memory = InMemoryDataDir.forServer(dir);
            if (memory.isPresent() && !EmbeddedMariaDb.runningIn(dir)) {
                InMemoryDataDir.delete(memory.get());   // a killed run's: the server it belonged to is gone
            }
            EmbeddedMariaDb embedded;
            Optional<Path> inMemory = memory;
            try {
                embedded = EmbeddedMariaDb.startOrAttach(dir, memory.orElse(dir.resolve("db")));
            } catch (IllegalStateException first) {
                // Once, on a loaded machine, the first install failed; the data is throwaway, so the
                // suite tries once more in a fresh directory on disk (which also sidesteps a full
                // /dev/shm) rather than failing the test class that happened to come first.
                LoggerFactory.getLogger(TestDatabase.class).warn("The test database did not start ({}); trying once more on disk",
                        first.getMessage());
                memory.ifPresent(InMemoryDataDir::delete);
                Path onDisk = dir.resolve("db");
                InMemoryDataDir.delete(onDisk);
                inMemory = Optional.empty();
                embedded = EmbeddedMariaDb.startOrAttach(dir, onDisk);
            }
            EmbeddedMariaDb started = embedded;
            Optional<Path> toDelete = inMemory;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                started.close();
                if (started.started()) {
                    toDelete.ifPresent(InMemoryDataDir::delete);
                }
            }, "embedded-test-db-stop"));
            return new Server(started.serverUrl(), "root", "", false);
        }

        /** {@code jdbc:mysql://host:port/db?x} becomes {@code jdbc:mysql://host:port/}. */
        private static String withoutDatabase(String url) {
            int hostStart = url.indexOf("//");
            int slash = url.indexOf('/', hostStart + 2);
            return slash < 0 ? url + "/" : url.substring(0, slash + 1);
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(serverUrl, user, password);
        }

        /** Drops a database if the server is still there to do it. */
        void drop(String database) {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
            } catch (SQLException e) {
                System.err.println("could not drop the test database " + database + ": " + e.getMessage());
            }
        }
    }
}
