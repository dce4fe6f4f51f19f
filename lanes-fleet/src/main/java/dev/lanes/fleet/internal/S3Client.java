package dev.lanes.fleet.internal;

import dev.lanes.fleet.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The three S3 calls the fleet makes itself, signed with AWS Signature Version 4: GET of an
 * object, ListObjectsV2 (every page) and DELETE of an object. Path-style requests on a custom
 * endpoint (s3proxy, MinIO, R2), virtual-hosted ones on AWS S3 ({@link ObjectStore#endpoint()}
 * null). Payloads are never signed ({@code UNSIGNED-PAYLOAD}): the requests carry none.
 *
 * <p>Thread-safety: immutable; the HTTP client is thread-safe.
 */
public final class S3Client {
    private static final DateTimeFormatter STAMP = DateTimeFormatter
            .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final String UNSIGNED = "UNSIGNED-PAYLOAD";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** One listed object. */
    public record Listed(String key, Instant lastModified, long size) {}

    /** The store answered a request with an error status. */
    public static final class S3Exception extends IOException {
        private static final long serialVersionUID = 1L;
        private final int status;

        S3Exception(int status, String message) {
            super(message);
            this.status = status;
        }

        /** The HTTP status. */
        public int status() {
            return status;
        }
    }

    private final ObjectStore store;
    private final HttpClient http;

    public S3Client(ObjectStore store) {
        this.store = store;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** The object's bytes. */
    public byte[] get(String key) throws IOException, InterruptedException {
        return send("GET", key, Map.of(), 200).body();
    }

    /** The object's bytes, once they came: {@link #await} them. */
    public CompletableFuture<byte[]> getAsync(String key) {
        HttpRequest request = request("GET", key, Map.of());
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(r -> {
                    try {
                        return checked(r, "GET", key, 200).body();
                    } catch (S3Exception e) {
                        throw new CompletionException(e);
                    }
                });
    }

    /** What {@link #getAsync} brought, its failure as thrown by {@link #get}. */
    public static byte[] await(CompletableFuture<byte[]> pending)
            throws IOException, InterruptedException {
        try {
            return pending.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    /** Deletes an object (absent ones too). */
    public void delete(String key) throws IOException, InterruptedException {
        send("DELETE", key, Map.of(), 204);
    }

    /** Every object whose key starts with {@code prefix}, in key order. */
    public List<Listed> list(String prefix) throws IOException, InterruptedException {
        List<Listed> out = new ArrayList<>();
        String token = null;
        do {
            Map<String, String> query = new TreeMap<>();
            query.put("list-type", "2");
            query.put("prefix", prefix);
            if (token != null) {
                query.put("continuation-token", token);
            }
            Document doc = xml(send("GET", null, query, 200).body());
            NodeList contents = doc.getElementsByTagName("Contents");
            for (int i = 0; i < contents.getLength(); i++) {
                Element c = (Element) contents.item(i);
                out.add(new Listed(text(c, "Key"), Instant.parse(text(c, "LastModified")),
                        Long.parseLong(text(c, "Size"))));
            }
            token = "true".equals(text(doc.getDocumentElement(), "IsTruncated"))
                    ? text(doc.getDocumentElement(), "NextContinuationToken") : null;
        } while (token != null);
        return out;
    }

    private HttpResponse<byte[]> send(String method, String key, Map<String, String> query,
            int expected) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(request(method, key, query),
                HttpResponse.BodyHandlers.ofByteArray());
        return checked(r, method, key, expected);
    }

    private static HttpResponse<byte[]> checked(HttpResponse<byte[]> r, String method,
            String key, int expected) throws S3Exception {
        if (r.statusCode() != expected && !(method.equals("DELETE") && r.statusCode() == 200)) {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            throw new S3Exception(r.statusCode(), method + " " + (key == null ? "(list)" : key)
                    + " answered " + r.statusCode() + ": "
                    + body.substring(0, Math.min(300, body.length())));
        }
        return r;
    }

    private HttpRequest request(String method, String key, Map<String, String> query) {
        String host;
        String path;
        String base;
        if (store.endpoint() == null) {
            host = store.bucket() + ".s3." + store.region() + ".amazonaws.com";
            base = "https://" + host;
            path = "/" + (key == null ? "" : encode(key, false));
        } else {
            URI e = store.endpoint();
            host = e.getHost() + (e.getPort() == -1 ? "" : ":" + e.getPort());
            base = e.getScheme() + "://" + host;
            path = "/" + encode(store.bucket(), true) + (key == null ? "" : "/" + encode(key, false));
        }
        StringBuilder q = new StringBuilder();
        for (Map.Entry<String, String> p : new TreeMap<>(query).entrySet()) {
            q.append(q.isEmpty() ? "" : "&").append(encode(p.getKey(), true)).append('=')
                    .append(encode(p.getValue(), true));
        }
        String stamp = STAMP.format(Instant.now());
        return HttpRequest.newBuilder(URI.create(base + path + (q.isEmpty() ? "" : "?" + q)))
                .timeout(TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("x-amz-date", stamp)
                .header("x-amz-content-sha256", UNSIGNED)
                .header("Authorization", authorization(method, host, path, q.toString(), stamp))
                .build();
    }

    private String authorization(String method, String host, String path, String query,
            String stamp) {
        String day = stamp.substring(0, 8);
        String scope = day + "/" + store.region() + "/s3/aws4_request";
        String signed = "host;x-amz-content-sha256;x-amz-date";
        String canonical = method + "\n" + path + "\n" + query + "\nhost:" + host
                + "\nx-amz-content-sha256:" + UNSIGNED + "\nx-amz-date:" + stamp + "\n\n"
                + signed + "\n" + UNSIGNED;
        String toSign = "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n"
                + HexFormat.of().formatHex(sha256(canonical));
        byte[] key = hmac(("AWS4" + store.secretAccessKey()).getBytes(StandardCharsets.UTF_8),
                day);
        key = hmac(key, store.region());
        key = hmac(key, "s3");
        key = hmac(key, "aws4_request");
        return "AWS4-HMAC-SHA256 Credential=" + store.accessKeyId() + "/" + scope
                + ", SignedHeaders=" + signed + ", Signature="
                + HexFormat.of().formatHex(hmac(key, toSign));
    }

    /** RFC 3986 encoding as SigV4 wants it; {@code /} kept in keys, encoded in query values. */
    static String encode(String s, boolean slash) {
        StringBuilder b = new StringBuilder();
        for (byte c : s.getBytes(StandardCharsets.UTF_8)) {
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~' || (c == '/' && !slash)) {
                b.append((char) c);
            } else {
                b.append('%').append(String.format("%02X", c & 0xff));
            }
        }
        return b.toString();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Document xml(byte[] body) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(new ByteArrayInputStream(body));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("unreadable ListObjectsV2 answer", e);
        }
    }

    private static String text(Element parent, String tag) {
        NodeList l = parent.getElementsByTagName(tag);
        return l.getLength() == 0 ? null : l.item(0).getTextContent();
    }
}
