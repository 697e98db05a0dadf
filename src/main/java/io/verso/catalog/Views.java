package io.verso.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Views of the catalog, read and written in the caller's transaction. A view is kept as the text of
 * its query; it has no physical object and is expanded where it is used.
 */
@Component
public class Views {

    private final JdbcTemplate jdbc;

    Views(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<ViewDef> find(String name) {
        return jdbc.query("SELECT name, columns, query FROM verso.user_views WHERE name = ?", rs -> {
            if (!rs.next()) {
                return Optional.<ViewDef>empty();
            }
            String[] columns = (String[]) rs.getArray(2).getArray();
            return Optional.of(new ViewDef(rs.getString(1), List.of(columns), rs.getString(3)));
        }, name);
    }

    public List<String> names() {
        return jdbc.queryForList("SELECT name FROM verso.user_views ORDER BY name", String.class);
    }

    public void create(ViewDef view, long commit) {
        jdbc.update(connection -> {
            var ps = connection.prepareStatement(
                    "INSERT INTO verso.user_views (name, columns, query, created_commit) VALUES (?, ?, ?, ?)");
            ps.setString(1, view.name());
            ps.setArray(2, connection.createArrayOf("text", view.columns().toArray()));
            ps.setString(3, view.query());
            ps.setLong(4, commit);
            return ps;
        });
    }

    public boolean delete(String name) {
        return jdbc.update("DELETE FROM verso.user_views WHERE name = ?", name) > 0;
    }

    static List<String> list(String[] values) {
        return Arrays.asList(values);
    }
}
