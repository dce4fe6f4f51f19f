package dev.lanes.examples.boot;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for the example application on its random port. */
final class Http {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    Http(int port) {
        this.base = "http://localhost:" + port;
    }

    /** A response: its status and its body as JSON (missing when it has none). */
    record Answer(int status, JsonNode json, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    Answer get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Answer post(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json)));
    }

    private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request.timeout(Duration.ofSeconds(60))
                .build(), HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        JsonNode json = null;
        if (body != null && !body.isBlank() && (body.startsWith("{") || body.startsWith("["))) {
            json = JSON.readTree(body);
        }
        return new Answer(response.statusCode(), json, body);
    }
}
