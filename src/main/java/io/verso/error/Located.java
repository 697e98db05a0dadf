package io.verso.error;

/** Anything that knows where in the caller's input it came from: syntax-tree positions, origins. */
public interface Located {
    Origin origin();
}
