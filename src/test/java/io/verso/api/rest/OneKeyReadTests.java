package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The plain form of a one-key read, which {@link RowRead} answers without MVC (at the front door, or by
 * {@link OneKeyReadFilter} for a request the front door passed on); any other form is MVC's. That its answers are
 * MVC's own, for every kind of caller, {@code api.FrontDoorTests} checks over HTTP.
 */
class OneKeyReadTests extends IntegrationTest {

    @Autowired
    RowRead row;

    @Test
    void onlyThePlainFormIsTaken() {
        assertThat(row.takes(withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row")))).isTrue();
        for (MockHttpServletRequest other : List.of(new MockHttpServletRequest("POST", "/v1/tables/t/row"),
                new MockHttpServletRequest("GET", "/v1/tables/t/rows"), new MockHttpServletRequest("GET", "/v1/tables//row"),
                new MockHttpServletRequest("GET", "/v1/tables/%74/row"), new MockHttpServletRequest("GET", "/v1/tables/t/row/"),
                new MockHttpServletRequest("GET", "/v1/tables/a/b/row"))) {
            assertThat(row.takes(withKey(other))).as(other.getMethod() + " " + other.getRequestURI()).isFalse();
        }
        MockHttpServletRequest twice = withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row"));
        twice.addParameter("asOfCommit", "1", "2");
        MockHttpServletRequest xml = withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row"));
        xml.addHeader("Accept", "application/xml");
        for (MockHttpServletRequest other : List.of(new MockHttpServletRequest("GET", "/v1/tables/t/row"), twice, xml)) {
            assertThat(row.takes(other)).as(other.getParameterMap() + " " + other.getHeader("Accept")).isFalse();
        }
    }

    private static MockHttpServletRequest withKey(MockHttpServletRequest request) {
        request.addParameter("key", "1");
        return request;
    }
}
