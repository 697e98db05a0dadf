package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.support.IntegrationTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A statement past its deadline is cancelled as pgjdbc's query timeout would; one that ended in time is not. */
class StatementDeadlinesTests extends IntegrationTest {

    @Autowired
    DataSource data;

    @Test
    void aStatementPastItsDeadlineIsCancelledAndOneThatEndedIsLeftAlone() throws SQLException {
        try (StatementDeadlines deadlines = new StatementDeadlines(); Connection connection = data.getConnection()) {
            try (PreparedStatement sleep = connection.prepareStatement("SELECT pg_sleep(30)")) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> deadlines.within(sleep, 300, sleep::execute))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(300),
                        Duration.ofSeconds(10));
            }
            try (PreparedStatement quick = connection.prepareStatement("SELECT pg_sleep(0.05), 1")) {
                assertThat(deadlines.within(quick, 300, () -> {
                    try (ResultSet rs = quick.executeQuery()) {
                        return rs.next() ? rs.getInt(2) : 0;
                    }
                })).isEqualTo(1);
                // Past the deadline it had, the same statement runs again, without one, to its end.
                try (ResultSet rs = connection.prepareStatement("SELECT pg_sleep(0.6), 2").executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(2)).isEqualTo(2);
                }
                assertThat(quick.executeQuery().next()).isTrue();
            }
        }
    }
}
