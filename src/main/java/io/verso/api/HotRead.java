package io.verso.api;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A read clients send far more often than anything else, which the {@link FrontDoor} answers before the filter
 * chain (and again, the same way, at the chain's end for a request the front door passed on). It takes only its
 * plain form; anything else is the chain's and MVC's, answered as it always was.
 */
public interface HotRead {

    /** The route of the requests it answers, as the request metric names it ({@code uri}). */
    String route();

    /** Whether this is a request in the plain form it answers, decided by its line and headers (no body is read). */
    boolean takes(HttpServletRequest request);

    /**
     * Answers a request it {@link #takes}, its caller, admission and Verso-Min-Commit settled; or writes nothing and
     * returns the request to pass on to the chain (with the body it read, if it read one).
     *
     * @return null once answered
     */
    HttpServletRequest answer(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException;
}
