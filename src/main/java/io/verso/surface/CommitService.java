package io.verso.surface;

import io.verso.commits.CommitRecord;
import io.verso.commits.CommitRepository;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.surface.Resources.Commit;
import io.verso.surface.Resources.CommitPage;
import io.verso.surface.Resources.TableTouched;
import java.util.Comparator;
import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;

/** The commit log: the latest commit, one commit, and the commits after a sequence in pages. */
@Service
public class CommitService {

    private final CommitRepository commits;

    CommitService(CommitRepository commits) {
        this.commits = commits;
    }

    public Commit latest() {
        long latest = commits.latest();
        if (latest == 0) {
            throw VersoException.user(ErrorCode.UNKNOWN_COMMIT, "no commit has been made yet");
        }
        return one(latest, null);
    }

    public Commit get(String seqText) {
        return one(Commits.parse(seqText, "commit"), "commit");
    }

    private Commit one(long seq, String pointer) {
        return commits.findById(seq).map(CommitService::render).orElseThrow(() -> VersoException.pointing(
                ErrorCode.UNKNOWN_COMMIT, "there is no commit " + seq, pointer));
    }

    public CommitPage after(String afterText, Integer limitParam) {
        Long after = Commits.parse(afterText, "after");
        int limit = ReadBuilder.limit(limitParam, ReadBuilder.DEFAULT_LIMIT, ReadBuilder.MAX_LIMIT,
                io.verso.sql.ast.Pos.pointer("limit"));
        // The latest commit first: every commit up to it is visible, so the page has no gaps it could fill later.
        long latest = commits.latest();
        List<CommitRecord> page = commits.findBySeqGreaterThanOrderBySeq(after == null ? 0 : after, Limit.of(limit))
                .stream().filter(c -> c.seq() <= latest).toList();
        String next = page.isEmpty() || page.get(page.size() - 1).seq() >= latest ? null
                : page.get(page.size() - 1).seq().toString();
        return new CommitPage(page.stream().map(CommitService::render).toList(), Long.toString(latest), next);
    }

    private static Commit render(CommitRecord record) {
        List<TableTouched> tables = record.tables().stream()
                .sorted(Comparator.comparing(CommitRecord.TableTouched::tableName))
                .map(t -> new TableTouched(t.tableName(), t.rowCount()))
                .toList();
        return new Commit(record.seq().toString(), record.committedAt().toString(), record.rowCount(), tables);
    }
}
