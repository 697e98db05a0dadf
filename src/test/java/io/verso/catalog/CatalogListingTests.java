package io.verso.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The whole catalog, as {@link Catalog#all} lists it (a query per kind of definition, for every table at once),
 * holds each table exactly as {@link Catalog#find} loads it alone: columns, groups and their ordering, indexes and
 * their scope, CHECK constraints, system versioning and retention, each in its order.
 */
class CatalogListingTests extends IntegrationTest {

    @Autowired
    Catalog catalog;

    @Test
    void everyTableIsListedAsItIsFoundAlone() {
        String plain = table("cl_plain");
        String grouped = table("cl_grouped");
        String system = table("cl_system");
        String appended = table("cl_append");
        sql.write("CREATE TABLE " + plain + " (k TEXT PRIMARY KEY, v INT DEFAULT 7, CHECK (v > 0))");
        sql.write("CREATE TABLE " + grouped + " (a INT, b TEXT, v INT NOT NULL, at BIGINT, rev BIGINT, note TEXT, "
                + "seen BIGINT, PRIMARY KEY (b, a), ATTRIBUTE GROUP meta (note, seen) VALID BY (seen), "
                + "CHECK (v < 100), CHECK (at >= 0)) VERSIONED VALID BY (at) REVISION BY (rev)");
        sql.write("ALTER TABLE " + grouped + " SET HISTORY RETENTION '30 days'");
        sql.write("CREATE INDEX " + grouped + "_by_v ON " + grouped + " (v, a)");
        sql.write("CREATE UNIQUE INDEX " + grouped + "_by_note ON " + grouped + " (note)");
        sql.write("ALTER TABLE " + grouped + " ADD COLUMN late TEXT DEFAULT 'x'");
        sql.write("CREATE TABLE " + system + " (id INT PRIMARY KEY, x INT) WITH SYSTEM VERSIONING");
        sql.write("CREATE TABLE " + appended + " (at BIGINT, what TEXT) APPEND");
        Map<String, TableDef> listed = catalog.all().stream()
                .collect(Collectors.toMap(TableDef::name, Function.identity()));
        for (String name : List.of(plain, grouped, system, appended)) {
            assertThat(listed.get(name)).as(name).isEqualTo(catalog.find(name).orElseThrow());
        }
        List<String> names = catalog.all().stream().map(TableDef::name).toList();
        assertThat(names).isSorted().containsAll(List.of(plain, grouped, system, appended));
        assertThat(listed.get(grouped).groups()).hasSize(2);
        assertThat(listed.get(grouped).checks()).hasSize(2);
    }
}
