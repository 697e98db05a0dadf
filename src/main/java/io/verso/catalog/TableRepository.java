package io.verso.catalog;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.ListCrudRepository;

interface TableRepository extends ListCrudRepository<TableRecord, Long> {

    Optional<TableRecord> findByName(String name);

    @Query("SELECT table_id FROM verso.user_indexes WHERE name = :name")
    Optional<Long> findTableIdByIndexName(String name);
}
