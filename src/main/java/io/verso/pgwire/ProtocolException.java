package io.verso.pgwire;

/** The client broke the protocol (a bad length, an unknown message, a truncated field): the connection ends. */
final class ProtocolException extends Exception {

    ProtocolException(String message) {
        super(message);
    }
}
