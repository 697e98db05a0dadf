package io.verso.commits;

import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

public interface CommitRepository extends ListCrudRepository<CommitRecord, Long> {

    /** The latest commit visible to the caller's snapshot, 0 when there is none. */
    @Query("SELECT coalesce(max(seq), 0) FROM verso.commits")
    long latest();

    List<CommitRecord> findBySeqGreaterThanOrderBySeq(long after, Limit limit);
}
