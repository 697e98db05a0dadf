package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.client.ApiClient;
import io.verso.client.ApiException;
import io.verso.client.api.CommitsApi;
import io.verso.client.api.RowsApi;
import io.verso.client.api.SqlApi;
import io.verso.client.api.TablesApi;
import io.verso.client.model.ColumnDefinition;
import io.verso.client.model.Commit;
import io.verso.client.model.DeleteRequest;
import io.verso.client.model.DerivedBuild;
import io.verso.client.model.DerivedTableDefinition;
import io.verso.client.model.GroupDefinition;
import io.verso.client.model.KeyHistory;
import io.verso.client.model.KeyOutcome;
import io.verso.client.model.RowPage;
import io.verso.client.model.RowResult;
import io.verso.client.model.SqlRequest;
import io.verso.client.model.SqlResponse;
import io.verso.client.model.TableCreated;
import io.verso.client.model.TableDefinition;
import io.verso.client.model.TableDiff;
import io.verso.client.model.TableMode;
import io.verso.client.model.Version;
import io.verso.client.model.WriteReceipt;
import io.verso.client.model.WriteRequest;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Java client generated from openapi/verso.yaml drives the running service end to end. */
class GeneratedClientTests extends IntegrationTest {

    private TablesApi tables;
    private RowsApi rows;
    private CommitsApi commits;
    private SqlApi sqlApi;

    @BeforeEach
    void client() {
        ApiClient client = new ApiClient();
        client.setRequestInterceptor(r -> r.header(io.verso.support.TestSecurity.HEADER,
                io.verso.support.TestSecurity.ADMIN_KEY));
        client.updateBaseUri("http://localhost:" + port);
        tables = new TablesApi(client);
        rows = new RowsApi(client);
        commits = new CommitsApi(client);
        sqlApi = new SqlApi(client);
    }

    private static Map<String, Object> row(long index, String amount) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("account", "9007199254740993");
        row.put("amount", amount);
        row.put("ix", index);
        return row;
    }

    private WriteReceipt write(String table, long index, String amount) throws ApiException {
        return rows.writeRows(table, new WriteRequest().rows(List.of(row(index, amount))));
    }

    @Test
    void createWriteReadAsOfHistoryDiffCommitsAndErrors() throws ApiException {
        String name = table("client");
        TableCreated created = tables.createTable(new TableDefinition().name(name).mode(TableMode.VERSIONED)
                .columns(List.of(new ColumnDefinition().name("account").type("BIGINT"),
                        new ColumnDefinition().name("amount").type("NUMERIC(20,2)"),
                        new ColumnDefinition().name("ix").type("INT")))
                .primaryKey(List.of("account"))
                .groups(List.of(new GroupDefinition().name("money").columns(List.of("amount", "ix"))
                        .validBy(List.of("ix")))));
        assertThat(created.getTable().getKey()).containsExactly("account");
        assertThat(tables.describeTable(name).getGroups()).extracting(g -> g.getName()).contains("money");
        assertThat(tables.listTables().getTables()).extracting(t -> t.getName()).contains(name);

        WriteReceipt first = write(name, 10, "1.10");
        WriteReceipt late = write(name, 5, "0.50");
        WriteReceipt third = write(name, 20, "123456789012345678.99");
        assertThat(late.getOutcomes()).extracting(KeyOutcome::getOutcome).containsExactly(KeyOutcome.OutcomeEnum.LOST);
        assertThat(third.getOutcomes().get(0).getKey()).containsEntry("account", "9007199254740993");

        List<String> key = List.of("9007199254740993");
        assertThat(rows.getRow(name, key, null, null, null, null).getRow()).containsEntry("amount", "123456789012345678.99");
        assertThat(rows.getRow(name, key, late.getCommit(), null, null, null).getRow()).containsEntry("amount", "1.10");
        String lateTime = commits.getCommit(late.getCommit()).getCommittedAt().toString();
        RowResult asOfTime = rows.getRow(name, key, null, null, lateTime, null);
        assertThat(asOfTime.getRow()).containsEntry("amount", "1.10");
        assertThat(asOfTime.getReadCommit()).isEqualTo(late.getCommit());
        assertThat(rows.getRow(name, key, null, third.getCommit(), null, null).getReadCommit()).isNotNull();

        KeyHistory history = rows.getKeyHistory(name, key, "money", null, null, null);
        assertThat(history.getVersions()).extracting(Version::getCommit)
                .containsExactly(first.getCommit(), late.getCommit(), third.getCommit());
        assertThat(history.getVersions()).extracting(Version::getCurrent).containsExactly(false, false, true);
        assertThat(history.getVersions().get(1).getCurrentFrom()).isNull();

        TableDiff diff = rows.diffTable(name, first.getCommit(), third.getCommit(), null, null);
        assertThat(diff.getChanged()).hasSize(1);
        assertThat(diff.getChanged().get(0).getBefore()).containsEntry("amount", "1.10");
        assertThat(diff.getChanged().get(0).getAfter()).containsEntry("amount", "123456789012345678.99");

        RowPage page = rows.listRows(name, List.of("amount:gt:100"), null, 10, null, null, null, null, null);
        assertThat(page.getRows()).hasSize(1);
        assertThat(page.getNextCursor()).isNull();

        Commit commit = commits.getCommit(third.getCommit());
        assertThat(commit.getTables()).extracting(t -> t.getTable()).containsExactly(name);
        assertThat(commit.getCommittedAt()).isNotNull();
        assertThat(commits.listCommits(first.getCommit(), 1).getCommits()).extracting(Commit::getCommit)
                .containsExactly(late.getCommit());
        assertThat(Long.parseLong(commits.getLatestCommit().getCommit()))
                .isGreaterThanOrEqualTo(Long.parseLong(third.getCommit()));

        WriteReceipt deleted = rows.deleteRows(name, new DeleteRequest().keys(List.of(Map.of("account", key.get(0))))
                .at(Map.of("ix", 30)));
        assertThat(deleted.getOutcomes()).extracting(KeyOutcome::getOutcome).containsExactly(KeyOutcome.OutcomeEnum.CURRENT);

        SqlResponse viaSql = sqlApi.executeSql(new SqlRequest().sql("SELECT count(*) AS n FROM " + name
                + " AS OF COMMIT ?").params(List.of(third.getCommit())), "generated-client");
        assertThat(viaSql.getResults().get(0).getRows()).isEqualTo(List.of(List.of("1")));

        assertThatThrownBy(() -> rows.getRow(name, key, null, null, null, null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(SqlClient.JSON.readTree(e.getResponseBody()).get("code").asString()).isEqualTo("UNKNOWN_KEY");
                });
        assertThatThrownBy(() -> write(name, 40, "not money"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(400);
                    assertThat(SqlClient.JSON.readTree(e.getResponseBody()).get("pointer").asString())
                            .isEqualTo("/rows/0/amount");
                });
        tables.dropTable(name);
        assertThatThrownBy(() -> tables.describeTable(name))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }

    @Test
    void createsADerivedTableAndFollowsItsBuild() throws ApiException, InterruptedException {
        String source = table("client_src");
        String derived = table("client_derived");
        sql.write("CREATE TABLE " + source + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("UPSERT INTO " + source + " VALUES (1, 5), (2, 6)");
        DerivedTableDefinition definition = new DerivedTableDefinition().name(derived).primaryKey(List.of("k"))
                .query("SELECT k, v * 2 AS twice FROM " + source);
        var accepted = tables.createDerivedTableWithHttpInfo(definition, "respond-async");
        assertThat(accepted.getStatusCode()).isEqualTo(202);
        DerivedBuild build = accepted.getData();
        for (int i = 0; i < 200 && (build.getState() == DerivedBuild.StateEnum.QUEUED
                || build.getState() == DerivedBuild.StateEnum.RUNNING); i++) {
            Thread.sleep(50);
            build = tables.getDerivedBuild(build.getId().toString());
        }
        assertThat(build.getState()).isEqualTo(DerivedBuild.StateEnum.SUCCEEDED);
        assertThat(build.getCommitsApplied()).isEqualTo(build.getCommitsTotal()).isEqualTo(1L);
        assertThat(build.getCommit()).isNotNull();
    }
}
