/**
 * Stage 3½: what each statement will do, decided before anything runs. {@link io.verso.plan.Planner} turns a
 * statement into one {@link io.verso.plan.Plan} — which relations it reads and at which commit, which
 * privileges the caller needs on which tables (derived from the lookups the plan made, not from the names the
 * statement holds), and the PostgreSQL statements it reads with — and {@link io.verso.plan.PlanPrinter} prints
 * a plan for EXPLAIN and the golden files. Pure: no Spring, no JDBC (arch/PackageDependencyTests); the engine
 * executes plans.
 */
package io.verso.plan;
