package dev.lanes.spring.fleet;

import dev.lanes.ErrorCode;
import dev.lanes.fleet.Member;
import dev.lanes.fleet.NotOwnerException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Sends a request for a tenant this node does not serve to the node that does. The tenant comes
 * from the {@link TenantResolver}; a request for no tenant passes untouched.
 *
 * <ul>
 *   <li>When the fleet names another node as the tenant's owner ({@link FleetNode#ownerOf}), the
 *       request is answered at once, without reaching the application.
 *   <li>Otherwise it goes on; when the application lets a {@link NotOwnerException} escape (from
 *       {@code fleet.database(tenant)}: nobody owned the tenant and placement gives it to another
 *       node, or it moved meanwhile), the filter answers in its place, unless the response was
 *       already committed.
 * </ul>
 *
 * <p>The answer, by {@link ForwardMode}: {@code REDIRECT}: {@code 307} with {@code Location} the
 * owner's advertised address (a URL, or {@code host:port} taken with the request's scheme) plus
 * the request's path and query, and the query parameter {@value #HOP_PARAMETER} naming this node;
 * {@code REJECT}: {@code 421 Misdirected Request}. Either names the owner in {@value
 * #OWNER_HEADER} and {@value #OWNER_ADDRESS_HEADER}. When no owner is known (or one without an
 * address, to redirect to), {@code 503} with {@code Retry-After: 1}. The 421 and 503 carry an
 * {@code application/problem+json} body whose {@code code} is {@code NOT_OWNER}.
 *
 * <p><b>One hop.</b> While a tenant's ownership changes, two nodes can each see the other as its
 * owner for a moment (each learns of the change from its own watch). A request that already
 * carries {@value #HOP_PARAMETER} is therefore never redirected again: it gets the {@code 503}
 * with {@code Retry-After: 1}, naming the node that sent it and the owner this node sees, so a
 * client never follows a loop between two nodes.
 *
 * <p>Thread-safety: immutable.
 */
public final class FleetOwnerFilter extends OncePerRequestFilter {
    /** The response header that names the owner's node id. */
    public static final String OWNER_HEADER = "X-Lanes-Owner";
    /** The response header that carries the owner's advertised address. */
    public static final String OWNER_ADDRESS_HEADER = "X-Lanes-Owner-Address";
    /**
     * The query parameter a redirect adds, naming the node that redirected; a request carrying it
     * is not redirected again.
     */
    public static final String HOP_PARAMETER = "lanes-fleet-hop";
    /** The status of a request {@link ForwardMode#REJECT}ed: Misdirected Request. */
    public static final int MISDIRECTED_REQUEST = 421;

    private final FleetNode fleet;
    private final TenantResolver tenants;
    private final ForwardMode mode;

    /** A filter that finds tenants with {@code tenants}, owners with {@code fleet}. */
    public FleetOwnerFilter(FleetNode fleet, TenantResolver tenants, ForwardMode mode) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
            FilterChain chain) throws ServletException, IOException {
        String tenant = tenants.resolve(request);
        if (tenant == null || tenant.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Member> owner = fleet.ownerOf(tenant);
        if (owner.isPresent() && !isThisNode(owner.get())) {
            answer(request, response, tenant, owner.get());
            return;
        }
        try {
            chain.doFilter(request, response);
        } catch (ServletException | IOException | RuntimeException e) {
            NotOwnerException notOwner = notOwner(e);
            if (notOwner == null || response.isCommitted()) {
                throw e;
            }
            response.reset();
            answer(request, response, notOwner.tenant(), notOwner.owner().orElse(null));
        }
    }

    private boolean isThisNode(Member member) {
        return member.id().equals(fleet.node().id());
    }

    private void answer(HttpServletRequest request, HttpServletResponse response, String tenant,
            Member owner) throws IOException {
        Member elsewhere = owner == null || isThisNode(owner) ? null : owner;
        if (elsewhere != null) {
            response.setHeader(OWNER_HEADER, elsewhere.id());
            if (!elsewhere.address().isBlank()) {
                response.setHeader(OWNER_ADDRESS_HEADER, elsewhere.address());
            }
        }
        String sentBy = request.getParameter(HOP_PARAMETER);
        if (mode == ForwardMode.REDIRECT && elsewhere != null && !elsewhere.address().isBlank()
                && sentBy == null) {
            response.setStatus(HttpServletResponse.SC_TEMPORARY_REDIRECT);
            response.setHeader("Location", location(request, elsewhere.address(),
                    fleet.node().id()));
            return;
        }
        int status;
        String detail;
        if (mode == ForwardMode.REDIRECT && elsewhere != null && sentBy != null) {
            status = HttpServletResponse.SC_SERVICE_UNAVAILABLE;
            response.setHeader("Retry-After", "1");
            detail = "tenant " + tenant + " was sent here by node " + sentBy + ", but node "
                    + fleet.node().id() + " sees node " + elsewhere.id() + " as its owner: its "
                    + "ownership is changing; try again";
        } else if (elsewhere == null) {
            status = HttpServletResponse.SC_SERVICE_UNAVAILABLE;
            response.setHeader("Retry-After", "1");
            detail = "tenant " + tenant + " is not served by node " + fleet.node().id()
                    + ", and no other owner is known yet; try again";
        } else {
            status = mode == ForwardMode.REJECT ? MISDIRECTED_REQUEST
                    : HttpServletResponse.SC_SERVICE_UNAVAILABLE;
            if (status == HttpServletResponse.SC_SERVICE_UNAVAILABLE) {
                response.setHeader("Retry-After", "1");
            }
            detail = "tenant " + tenant + " is served by node " + elsewhere.id()
                    + (elsewhere.address().isBlank() ? ", which advertises no address"
                            : " at " + elsewhere.address());
        }
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(problem(status, detail, tenant, elsewhere));
    }

    /** The owner's address with the request's path and query, and the hop from {@code self}. */
    static String location(HttpServletRequest request, String address, String self) {
        String base = address.contains("://") ? address : request.getScheme() + "://" + address;
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String query = request.getQueryString();
        String hop = HOP_PARAMETER + "=" + URLEncoder.encode(self, StandardCharsets.UTF_8);
        return base + request.getRequestURI() + "?" + (query == null ? hop : query + "&" + hop);
    }

    private static String problem(int status, String detail, String tenant, Member owner) {
        StringBuilder json = new StringBuilder("{\"title\":\"Not served by this node\"")
                .append(",\"status\":").append(status)
                .append(",\"code\":\"").append(ErrorCode.NOT_OWNER.name()).append('"')
                .append(",\"detail\":").append(quote(detail))
                .append(",\"tenant\":").append(quote(tenant));
        if (owner != null) {
            json.append(",\"owner\":").append(quote(owner.id()))
                    .append(",\"ownerAddress\":").append(quote(owner.address()));
        }
        return json.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** The {@link NotOwnerException} among {@code e} and its causes, if any. */
    private static NotOwnerException notOwner(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NotOwnerException n) {
                return n;
            }
        }
        return null;
    }
}
