package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.Database;
import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.testing.Tools;
import dev.lanes.spring.fleet.FleetOwnerFilter;
import dev.lanes.spring.fleet.LanesFleetNodeAutoConfiguration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Two Spring Boot nodes of one fleet, each a real Tomcat on its own port, with the starter's
 * request filter, on real engines (etcd, s3proxy, Litestream; skipped with a message where one
 * cannot be had), as a client meets them:
 *
 * <ul>
 *   <li>a request for a tenant sent to the node that does not own it is redirected ({@code 307})
 *       to the owner's advertised address, naming the owner, and following the redirect reaches
 *       the owner, which serves it;
 *   <li>once the owner's node stops, the surviving node takes the tenant over and serves it with
 *       every write the first node acknowledged.
 * </ul>
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FleetRedirectEndToEndTest {
    private static final String TENANT = "acme";
    /** How long a client keeps retrying while the survivor takes the tenant over. */
    private static final Duration TAKEOVER = Duration.ofSeconds(60);

    @TempDir static Path dir;
    static FleetEngines engines;
    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5))
            .build();

    @BeforeAll
    static void engines() {
        try {
            engines = FleetEngines.start(dir);
        } catch (Tools.Unavailable e) {
            abort("fleet redirect test skipped: " + e.getMessage());
        }
    }

    @AfterAll
    static void stop() {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void aClientIsRedirectedToTheOwnerAndServedByTheSurvivorAfterTheOwnerStops()
            throws Exception {
        int[] ports = {freePort(), freePort()};
        String[] ids = {"a", "b"};
        ConfigurableApplicationContext[] nodes = {node(ids[0], ports[0]), null};
        try {
            nodes[1] = node(ids[1], ports[1]);
            // the first request, to a, places the tenant: on a, or redirected to b
            HttpResponse<String> first = hit(ports[0]);
            int owner = first.statusCode() == 307 ? 1 : 0;
            int other = 1 - owner;
            HttpResponse<String> served = owner == 0 ? first : follow(first, ports[1], ids[1],
                    ids[0]);
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            assertThat(served.body()).isEqualTo(ids[owner] + " 1");

            HttpResponse<String> redirected = hit(ports[other]);
            HttpResponse<String> followed = follow(redirected, ports[owner], ids[owner],
                    ids[other]);
            assertThat(followed.statusCode()).as(followed.body()).isEqualTo(200);
            assertThat(followed.body()).isEqualTo(ids[owner] + " 2");

            nodes[owner].close(); // a planned stop: the owner hands its tenants back
            HttpResponse<String> taken = untilServed(ports[other]);
            assertThat(taken.body()).as("served by the survivor with both acknowledged writes")
                    .isEqualTo(ids[other] + " 3");
            assertThat(nodes[other].getBean(Fleet.class).tenants()).containsExactly(TENANT);
        } finally {
            for (ConfigurableApplicationContext node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }

    /**
     * Checks that {@code response} is the redirect a non-owner ({@code from}) answers, to the
     * owner ({@code to}, on {@code port}), and follows it as a client does.
     */
    private HttpResponse<String> follow(HttpResponse<String> response, int port, String to,
            String from) throws IOException, InterruptedException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(307);
        assertThat(response.headers().firstValue(FleetOwnerFilter.OWNER_HEADER)).contains(to);
        String location = response.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("http://127.0.0.1:" + port + "/hits?")
                .contains(FleetOwnerFilter.HOP_PARAMETER + "=" + from);
        return http.send(request(URI.create(location)), HttpResponse.BodyHandlers.ofString());
    }

    /** A client's retries while the tenant changes hands: bounded, each one a real request. */
    private HttpResponse<String> untilServed(int port) throws Exception {
        long deadline = System.nanoTime() + TAKEOVER.toNanos();
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = hit(port);
                if (r.statusCode() == 200) {
                    return r;
                }
                seen.add(r.statusCode() + " " + r.headers().firstValue("Location").orElse(""));
            } catch (ConnectException e) {
                seen.add("refused: " + e.getMessage());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        throw new AssertionError("the survivor never served " + TENANT + " within " + TAKEOVER
                + "; answers: " + seen);
    }

    private HttpResponse<String> hit(int port) throws IOException, InterruptedException {
        return http.send(request(URI.create("http://127.0.0.1:" + port + "/hits")),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(URI uri) {
        return HttpRequest.newBuilder(uri).header("X-Lanes-Tenant", TENANT)
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static ConfigurableApplicationContext node(String id, int port) {
        List<String> properties = new ArrayList<>(engines.nodeProperties(id,
                "http://127.0.0.1:" + port, "redirect", dir.resolve(id)));
        properties.add("server.port=" + port);
        properties.add("server.address=127.0.0.1");
        return new SpringApplicationBuilder(Node.class).web(WebApplicationType.SERVLET)
                .properties(properties.toArray(String[]::new)).run();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A node: Tomcat, the starter's fleet and filter, and one servlet that counts its hits. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({TomcatServletWebServerAutoConfiguration.class,
            LanesAutoConfiguration.class, LanesFleetAutoConfiguration.class,
            LanesFleetNodeAutoConfiguration.class})
    static class Node {
        /** Records this node's id in the tenant's database, answers "node count". */
        @Bean
        ServletRegistrationBean<HttpServlet> hits(Fleet fleet) {
            HttpServlet servlet = new HttpServlet() {
                private static final long serialVersionUID = 1L;

                @Override
                protected void doPost(HttpServletRequest request, HttpServletResponse response)
                        throws IOException {
                    Database db = fleet.database(request.getHeader("X-Lanes-Tenant"));
                    db.execute("CREATE TABLE IF NOT EXISTS hit (node TEXT NOT NULL)");
                    String node = fleet.node().id();
                    db.execute("INSERT INTO hit (node) VALUES (?)", node);
                    long count = db.queryOne("SELECT count(*) AS n FROM hit").orElseThrow()
                            .getLong("n");
                    response.setContentType("text/plain");
                    response.getWriter().write(node + " " + count);
                }
            };
            return new ServletRegistrationBean<>(servlet, "/hits");
        }
    }
}
