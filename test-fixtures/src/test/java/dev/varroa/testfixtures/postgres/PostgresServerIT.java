package dev.varroa.testfixtures.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresServerExtension.class)
class PostgresServerIT {

    @Test
    void servesTheTestDatabaseWithPasswordAuthentication(PostgresServer postgres) throws SQLException {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT current_user, current_database(), inet_server_addr()::text")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getString(1)).isEqualTo(postgres.user());
            assertThat(result.getString(2)).isEqualTo(postgres.database());
            assertThat(result.getString(3)).startsWith("127.0.0.1");
        }
        assertThatThrownBy(() -> DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "wrong"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("password authentication failed");
    }

    @Test
    void keepsCommittedRowsAcrossAStopACrashAndAKill(PostgresServer postgres) throws Exception {
        String url = postgres.createDatabase("restarts");
        try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (id int PRIMARY KEY)");
            statement.execute("INSERT INTO kept VALUES (1)");
        }
        postgres.stop();
        assertThat(postgres.isRunning()).isFalse();
        assertThatThrownBy(() -> DriverManager.getConnection(url, postgres.user(), postgres.password()))
                .isInstanceOf(SQLException.class);
        postgres.start();
        try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO kept VALUES (2)");
        }
        postgres.crash();
        postgres.start();
        try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO kept VALUES (3)");
        }
        postgres.kill();
        assertThat(postgres.isRunning()).isFalse();
        postgres.start();
        try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FROM kept")) {
            result.next();
            assertThat(result.getInt(1)).isEqualTo(3);
        }
    }
}
