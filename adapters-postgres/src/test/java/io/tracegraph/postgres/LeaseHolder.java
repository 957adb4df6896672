package io.tracegraph.postgres;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A separate tracegraph process for the tests: acquires the home's server, prints
 * {@code READY <port>}, and closes the lease when it reads {@code close} (printing {@code CLOSED}).
 */
public final class LeaseHolder {
    private LeaseHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(Path.of(args[0]))) {
            String url = lease.config().jdbcUrl();
            System.out.println("READY " + url.substring(url.lastIndexOf(':') + 1, url.lastIndexOf('/')));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("close")) {
                // wait
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
    }
}
