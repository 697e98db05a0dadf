package io.verso.analyze;

/** How a relation of a read is served: its current rows, its winners at a commit, or every version. */
public enum RelationKind { CURRENT, AS_OF, HISTORY }
