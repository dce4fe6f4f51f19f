package dev.lanes.examples.boot;

import dev.lanes.LanesException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Lanes' outcomes as HTTP answers: a bad request is 400; a retryable refusal (queue full, reader
 * admission, disk floor: the request never ran) is 503 with {@code Retry-After}, so a client may
 * simply try again; anything else stays a 500.
 */
@RestControllerAdvice
public class ErrorHandling {

    @ExceptionHandler(IllegalArgumentException.class)
    public ProblemDetail badRequest(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler({LanesException.class, TransientDataAccessException.class})
    public ResponseEntity<ProblemDetail> lanes(RuntimeException e) {
        boolean retryable = e instanceof TransientDataAccessException
                || (e instanceof LanesException le && le.retryable());
        HttpStatus status = retryable ? HttpStatus.SERVICE_UNAVAILABLE
                : HttpStatus.INTERNAL_SERVER_ERROR;
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status);
        if (retryable) {
            answer.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return answer.body(ProblemDetail.forStatusAndDetail(status, e.getMessage()));
    }
}
