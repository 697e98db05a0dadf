package io.verso.analyze;

/** A column reference bound to a relation alias, or (qualifier null) to an output column alias. */
public record ResolvedRef(String qualifier, String column) {
}
