package io.verso.engine;

import io.verso.analyze.DdlAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.engine.StatementResult.Column;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.security.AccessControl;
import io.verso.security.Privilege;
import io.verso.security.VersoPrincipal;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CREATE/DROP ROLE, GRANT, REVOKE and SHOW GRANTS, in the request's transaction. Managing roles,
 * granting on ALL TABLES and listing grants need ADMIN on ALL TABLES; granting on a table needs ADMIN
 * on that table.
 */
final class AccessStatements {

    private final AccessControl access;
    private final Catalog catalog;

    AccessStatements(AccessControl access, Catalog catalog) {
        this.access = access;
        this.catalog = catalog;
    }

    StatementResult createRole(Statement.CreateRole c, VersoPrincipal principal) {
        access.requireGlobalAdmin(principal, "CREATE ROLE", c.pos());
        DdlAnalyzer.checkName(c.role(), "role");
        if (!access.createRole(c.role().name())) {
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "role '" + c.role().name() + "' already exists",
                    c.role().pos());
        }
        return new StatementResult.Changed("CREATE ROLE", null, true, null);
    }

    StatementResult dropRole(Statement.DropRole d, VersoPrincipal principal) {
        access.requireGlobalAdmin(principal, "DROP ROLE", d.pos());
        boolean dropped = access.dropRole(d.role().name());
        if (!dropped && !d.ifExists()) {
            throw unknownRole(d.role());
        }
        return new StatementResult.Changed("DROP ROLE", null, dropped, null);
    }

    StatementResult showGrants(Statement.ShowGrants show, VersoPrincipal principal) {
        access.requireGlobalAdmin(principal, "SHOW GRANTS", show.pos());
        if (show.role() != null && !access.roleExists(show.role().name())) {
            throw unknownRole(show.role());
        }
        return new StatementResult.Rows("SHOW GRANTS", List.of(new Column("role", "TEXT"),
                new Column("on", "TEXT"), new Column("privilege", "TEXT")),
                access.showGrants(show.role() == null ? null : show.role().name()), null);
    }

    StatementResult grant(Statement.Grant g, VersoPrincipal principal) {
        String kind = g.revoke() ? "REVOKE" : "GRANT";
        List<Long> tableIds = new ArrayList<>();
        if (g.tables().isEmpty()) {
            access.requireGlobalAdmin(principal, kind + " ON ALL TABLES", g.pos());
            tableIds.add(null);
        } else {
            for (Ident name : g.tables()) {
                TableDef table = catalog.find(name.name()).orElseThrow(() -> Refusals.unknownTable(name.name(),
                        name.pos()));
                access.check(principal, table, Privilege.ADMIN, name.name(), name.pos());
                tableIds.add(table.id());
            }
        }
        for (Ident role : g.roles()) {
            if (!access.roleExists(role.name())) {
                throw unknownRole(role);
            }
        }
        List<Privilege> privileges = g.privilege() == null ? Arrays.asList(Privilege.values())
                : List.of(Privilege.valueOf(g.privilege()));
        access.grant(g.revoke(), privileges, tableIds, g.roles().stream().map(Ident::name).toList());
        return new StatementResult.Changed(kind, null, true, null);
    }

    private static VersoException unknownRole(Ident role) {
        return VersoException.at(ErrorCode.UNKNOWN_ROLE, "unknown role '" + role.name() + "'", role.pos());
    }
}
