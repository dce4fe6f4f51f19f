package dev.lanes.spring.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.jayway.jsonpath.JsonPath;
import dev.lanes.fleet.Member;
import dev.lanes.fleet.NotOwnerException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The request filter on a stub node "a": a request for a tenant "a" serves, or for no tenant,
 * reaches the application; one for another node's tenant is redirected there (307, same path and
 * query) or rejected (421) naming the owner, without reaching it; a {@link NotOwnerException} the
 * application lets escape gets the same answer, or 503 when no owner is known.
 */
class FleetOwnerFilterTest {
    private static final Member B = new Member("b", "http://b.internal:8080/");

    private final StubFleetNode fleet = new StubFleetNode();
    private final AtomicInteger reached = new AtomicInteger();
    private final FilterChain application = (req, res) -> reached.incrementAndGet();

    private static MockHttpServletRequest request(String tenant) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders/7");
        request.setQueryString("expand=lines&x=%20y");
        if (tenant != null) {
            request.addHeader("X-Lanes-Tenant", tenant);
        }
        return request;
    }

    private MockHttpServletResponse run(ForwardMode mode, MockHttpServletRequest request,
            FilterChain chain) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        new FleetOwnerFilter(fleet, TenantResolver.header("X-Lanes-Tenant"), mode)
                .doFilter(request, response, chain);
        return response;
    }

    @Test
    void aRequestForNoTenantOrForATenantThisNodeOwnsOrNobodyOwnsReachesTheApplication()
            throws Exception {
        fleet.owners.put("mine", StubFleetNode.SELF);
        for (String tenant : new String[] {null, "", "mine", "unowned"}) {
            MockHttpServletResponse response = run(ForwardMode.REDIRECT, request(tenant),
                    application);
            assertThat(response.getStatus()).as("tenant %s", tenant).isEqualTo(200);
            assertThat(response.getHeader(FleetOwnerFilter.OWNER_HEADER)).isNull();
        }
        assertThat(reached).hasValue(4);
    }

    @Test
    void aRequestForAnotherNodesTenantIsRedirectedThereWithItsPathAndQuery() throws Exception {
        fleet.owners.put("t1", B);
        MockHttpServletResponse response = run(ForwardMode.REDIRECT, request("t1"), application);
        assertThat(reached).hasValue(0);
        assertThat(response.getStatus()).isEqualTo(307);
        assertThat(response.getHeader("Location"))
                .isEqualTo("http://b.internal:8080/api/orders/7?expand=lines&x=%20y"
                        + "&lanes-fleet-hop=" + StubFleetNode.SELF.id());
        assertThat(response.getHeader(FleetOwnerFilter.OWNER_HEADER)).isEqualTo("b");
        assertThat(response.getHeader(FleetOwnerFilter.OWNER_ADDRESS_HEADER))
                .isEqualTo(B.address());
    }

    @Test
    void anAddressWithoutSchemeTakesTheRequestsScheme() throws Exception {
        fleet.owners.put("t1", new Member("b", "10.0.0.9:8443"));
        MockHttpServletRequest request = request("t1");
        request.setScheme("https");
        request.setQueryString(null);
        MockHttpServletResponse response = run(ForwardMode.REDIRECT, request, application);
        assertThat(response.getHeader("Location")).isEqualTo(
                "https://10.0.0.9:8443/api/orders/7?lanes-fleet-hop=" + StubFleetNode.SELF.id());
    }

    /**
     * Two nodes that each see the other as a tenant's owner for a moment: node "b" redirected a
     * request for "t1" here, to "a", which sees "b" as the owner and would send it back; "a"
     * answers 503 with Retry-After instead, naming who sent it and whom it sees as the owner, so
     * no client loops between them.
     */
    @Test
    void aRedirectedRequestIsNeverRedirectedAgainSoTwoNodesCannotLoopAClient() throws Exception {
        fleet.owners.put("t1", B);
        MockHttpServletRequest arriving = request("t1");
        arriving.setQueryString("expand=lines&" + FleetOwnerFilter.HOP_PARAMETER + "=b");
        arriving.setParameter("expand", "lines");
        arriving.setParameter(FleetOwnerFilter.HOP_PARAMETER, "b");

        MockHttpServletResponse second = run(ForwardMode.REDIRECT, arriving, application);
        assertThat(reached).hasValue(0);
        assertThat(second.getStatus()).isEqualTo(503);
        assertThat(second.getHeader("Location")).isNull();
        assertThat(second.getHeader("Retry-After")).isEqualTo("1");
        assertThat(second.getHeader(FleetOwnerFilter.OWNER_HEADER)).isEqualTo("b");
        String detail = JsonPath.read(second.getContentAsString(), "$.detail");
        assertThat(detail).contains("sent here by node b").contains("sees node b")
                .contains("ownership is changing");

        // without the hop, the same request is redirected as before
        assertThat(run(ForwardMode.REDIRECT, request("t1"), application).getStatus())
                .isEqualTo(307);

        // a request that carries the hop reaches the application where its tenant is served
        fleet.owners.put("t1", StubFleetNode.SELF);
        assertThat(run(ForwardMode.REDIRECT, arriving, application).getStatus()).isEqualTo(200);
        assertThat(reached).hasValue(1);
    }

    @Test
    void rejectAnswers421NamingTheOwnerWithoutReachingTheApplication() throws Exception {
        fleet.owners.put("t1", B);
        MockHttpServletResponse response = run(ForwardMode.REJECT, request("t1"), application);
        assertThat(reached).hasValue(0);
        assertThat(response.getStatus()).isEqualTo(FleetOwnerFilter.MISDIRECTED_REQUEST);
        assertThat(response.getHeader("Location")).isNull();
        assertThat(response.getHeader(FleetOwnerFilter.OWNER_HEADER)).isEqualTo("b");
        assertThat(response.getContentType()).startsWith("application/problem+json");
        String body = response.getContentAsString();
        assertThat((String) JsonPath.read(body, "$.code")).isEqualTo("NOT_OWNER");
        assertThat((String) JsonPath.read(body, "$.tenant")).isEqualTo("t1");
        assertThat((String) JsonPath.read(body, "$.owner")).isEqualTo("b");
        assertThat((Integer) JsonPath.read(body, "$.status")).isEqualTo(421);
    }

    @Test
    void aNotOwnerExceptionFromTheApplicationIsAnsweredAsARequestForTheOwner() throws Exception {
        FilterChain throwing = (req, res) -> {
            res.getWriter().write("partial");
            throw new ServletException("handler failed", new NotOwnerException("t2", B,
                    "tenant t2 has no owner; placement gives it to node b"));
        };
        MockHttpServletResponse redirected = run(ForwardMode.REDIRECT, request("t2"), throwing);
        assertThat(redirected.getStatus()).isEqualTo(307);
        assertThat(redirected.getHeader("Location")).startsWith("http://b.internal:8080/api/");
        assertThat(redirected.getContentAsString()).isEmpty();

        MockHttpServletResponse rejected = run(ForwardMode.REJECT, request("t2"), throwing);
        assertThat(rejected.getStatus()).isEqualTo(421);
        assertThat((String) JsonPath.read(rejected.getContentAsString(), "$.owner"))
                .isEqualTo("b");
    }

    @Test
    void noKnownOwnerOrOneWithoutAddressIs503WithRetryAfter() throws Exception {
        FilterChain unknown = (req, res) -> {
            throw new NotOwnerException("t3", null, "tenant t3 is moving");
        };
        MockHttpServletResponse response = run(ForwardMode.REDIRECT, request("t3"), unknown);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("1");
        assertThat(response.getHeader(FleetOwnerFilter.OWNER_HEADER)).isNull();
        assertThat((String) JsonPath.read(response.getContentAsString(), "$.code"))
                .isEqualTo("NOT_OWNER");

        fleet.owners.put("t4", new Member("c", ""));
        MockHttpServletResponse noAddress = run(ForwardMode.REDIRECT, request("t4"),
                application);
        assertThat(noAddress.getStatus()).isEqualTo(503);
        assertThat(noAddress.getHeader(FleetOwnerFilter.OWNER_HEADER)).isEqualTo("c");
        assertThat(reached).hasValue(0);
    }

    @Test
    void otherFailuresAndOnesAfterTheResponseWasCommittedPassThrough() throws Exception {
        FilterChain failing = (req, res) -> {
            throw new IllegalStateException("a bug");
        };
        assertThatThrownBy(() -> run(ForwardMode.REDIRECT, request("t5"), failing))
                .isInstanceOf(IllegalStateException.class).hasMessage("a bug");

        FilterChain committedThenNotOwner = (req, res) -> {
            res.flushBuffer();
            throw new NotOwnerException("t5", B, "moved while streaming");
        };
        assertThatThrownBy(() -> run(ForwardMode.REDIRECT, request("t5"),
                committedThenNotOwner)).isInstanceOf(NotOwnerException.class);
    }

    @Test
    void aTenantNameIsEscapedInTheProblemBody() throws Exception {
        fleet.owners.put("q\"\\\n", B);
        MockHttpServletResponse response = run(ForwardMode.REJECT, request("q\"\\\n"),
                new MockFilterChain());
        assertThat((String) JsonPath.read(response.getContentAsString(), "$.tenant"))
                .isEqualTo("q\"\\\n");
    }
}
