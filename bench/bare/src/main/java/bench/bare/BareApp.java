package bench.bare;

import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What a user would write instead of Verso to read one key of a table: one endpoint, one prepared statement
 * through JdbcTemplate and Hikari, the row as JSON by Spring's defaults. No security, no history.
 */
@SpringBootApplication
@RestController
public class BareApp {

    private final JdbcTemplate jdbc;

    public BareApp(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public static void main(String[] args) {
        SpringApplication.run(BareApp.class, args);
    }

    /**
     * The current row of one key (chain, address, token) of the benchmark's plain table {@code balances_cur}, as
     * its direct PostgreSQL read selects it, at the path Verso serves a row at (so one client reads both).
     */
    @GetMapping("/v1/tables/balances/row")
    public List<Map<String, Object>> row(@RequestParam List<String> key) {
        return jdbc.queryForList("SELECT chain_id, address, token, amount, updated_at, balance_index, balance_version"
                + " FROM balances_cur WHERE chain_id = ? AND address = ? AND token = ?",
                Long.parseLong(key.get(0)), key.get(1), key.get(2));
    }
}
