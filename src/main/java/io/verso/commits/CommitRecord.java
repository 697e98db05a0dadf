package io.verso.commits;

import java.time.Instant;
import java.util.Set;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Transient;
import org.springframework.data.domain.Persistable;
import org.springframework.data.relational.core.mapping.MappedCollection;
import org.springframework.data.relational.core.mapping.Table;

/** One commit, with the principal that made it (null when security is off and no actor was named). Its sequence is assigned by the engine before the record is saved, so it is always new. */
@Table(schema = "verso", name = "commits")
public record CommitRecord(@Id Long seq, Instant committedAt, long rowCount,
                           @MappedCollection(idColumn = "commit_seq") Set<TableTouched> tables, String principal)
        implements Persistable<Long> {

    @Override
    public Long getId() {
        return seq;
    }

    @Override
    @Transient
    public boolean isNew() {
        return true;
    }

    /** A table a commit wrote, with the number of rows (versions, or tables created) it wrote there. */
    @Table(schema = "verso", name = "commit_tables")
    public record TableTouched(String tableName, long rowCount) {
    }
}
