package io.verso.catalog;

/** What an index covers: the current rows, the retained versions, or both. */
public enum IndexScope { CURRENT, HISTORY, BOTH }
