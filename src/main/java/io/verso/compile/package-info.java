/**
 * Stage 3: analysed statements to PostgreSQL text plus binds. Pure functions, no JDBC, no Spring.
 * {@link io.verso.compile.SqlBuilder} is the only way SQL text is made, and the physical layout
 * of user tables (current rows, history with current-from/current-to commits) lives only here.
 */
package io.verso.compile;
