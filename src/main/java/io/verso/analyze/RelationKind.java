package io.verso.analyze;

/**
 * How a relation of a read is served: its current rows, its winners at a commit, every version, or
 * every change of its current rows ({@code changes(t)}).
 */
public enum RelationKind { CURRENT, AS_OF, HISTORY, CHANGES }
