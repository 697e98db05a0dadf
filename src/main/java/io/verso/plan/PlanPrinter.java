package io.verso.plan;

import io.verso.analyze.BoundRelation;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.compile.CompiledSql;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A plan as text, one line per element, for EXPLAIN and the golden plan files (the same printer for
 * both, so the files show what users see): the statement and its target, the relations it reads and the
 * commit each is read at, the privileges it needs, then its steps, each read step with its PostgreSQL
 * statement and binds. The SQL names the storage relations of tables the caller may read (the plan
 * needed SELECT on them).
 */
public final class PlanPrinter {

    private static final String INDENT = "  ";

    private PlanPrinter() {
    }

    public static List<String> print(Plan plan) {
        List<String> out = new ArrayList<>();
        if (plan instanceof Plan.Read read) {
            out.add("SELECT");
            out.add("reads: " + relations(read.relations()));
            needs(out, plan);
            step(out, 1, "read the rows", read.query());
        } else if (plan instanceof Plan.QueriedWrite write) {
            out.add(write.statement() + " INTO " + write.target().name());
            out.add("reads: " + relations(write.source().relations()));
            needs(out, plan);
            step(out, 1, "read the query's rows, as text per column (" + String.join(", ",
                    write.columns().stream().map(ColumnDef::name).toList()) + ")", write.read());
            out.add("step 2: write the rows read as " + write.statement() + " ... VALUES writes them"
                    + (write.insert().upsert() ? "" : ", refusing a key that has a current row")
                    + ", at this request's commit");
        } else if (plan instanceof Plan.Update update) {
            out.add("UPDATE " + update.bound().table().name());
            out.add("reads: " + update.bound().table().name() + " (current rows)");
            needs(out, plan);
            step(out, 1, "read the rows it matches, with their new values", update.read());
            out.add("step 2: write a new version of attribute group(s) " + groups(update.bound().groups())
                    + " of each row read, at this request's commit");
        } else if (plan instanceof Plan.Delete delete) {
            out.add("DELETE FROM " + delete.bound().table().name());
            if (delete.read() == null) {
                out.add("reads: nothing (the WHERE names every key column)");
                needs(out, plan);
                out.add("step 1: write a tombstone for each key named, at this request's commit");
            } else {
                out.add("reads: " + delete.bound().table().name() + " (current rows)");
                needs(out, plan);
                step(out, 1, "read the keys of the rows it matches", delete.read());
                out.add("step 2: write a tombstone for each key read, at this request's commit");
            }
        } else if (plan instanceof Plan.Direct direct) {
            out.add(direct.statement() + (direct.target() == null ? "" : " " + direct.target()));
            needs(out, plan);
            out.add("step 1: carried out as it runs (no query of its own to show)");
        }
        return out;
    }

    private static void needs(List<String> out, Plan plan) {
        List<String> needs = plan.needs().stream().map(n -> n.privilege() + " on "
                + (n.table() == null ? "ALL TABLES" : n.table())).toList();
        out.add("needs: " + (needs.isEmpty() ? "nothing" : String.join(", ", needs)));
    }

    private static void step(List<String> out, int number, String what, CompiledSql sql) {
        out.add("step " + number + ": " + what);
        for (String line : sql.render().split("\n")) {
            out.add(INDENT + line);
        }
    }

    /** Each relation once, with the commit it is read at. */
    private static String relations(List<BoundRelation> relations) {
        if (relations.isEmpty()) {
            return "nothing";
        }
        Set<String> out = new LinkedHashSet<>();
        for (BoundRelation r : relations) {
            String table = r.table().name();
            out.add(switch (r.kind()) {
                case CURRENT -> table + " (current rows)";
                case AS_OF -> table + " AS OF COMMIT " + r.asOf();
                case HISTORY -> "history(" + table + ")" + (r.asOf() == null ? "" : " AS OF COMMIT " + r.asOf());
                case CHANGES -> "changes(" + table + ")" + (r.asOf() == null ? "" : " AS OF COMMIT " + r.asOf());
                case RANGE -> table + " FOR SYSTEM_TIME " + (r.asOf() == null ? "ALL"
                        : "FROM COMMIT " + r.rangeFrom() + " TO COMMIT " + r.asOf());
            });
        }
        return String.join(", ", out);
    }

    private static String groups(List<GroupDef> groups) {
        return String.join(", ", groups.stream().map(GroupDef::name).toList());
    }
}
