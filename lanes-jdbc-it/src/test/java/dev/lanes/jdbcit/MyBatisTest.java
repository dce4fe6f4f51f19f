package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.SelectKey;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** MyBatis with a mapper interface over {@code db.dataSource()}. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MyBatisTest {
    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    /** A row of {@code book}. */
    public static class Book {
        private Long id;
        private String title;
        private int copies;

        public Book() {}

        Book(String title, int copies) {
            this.title = title;
            this.copies = copies;
        }

        public Long getId() {
            return id;
        }

        public void setId(Long id) {
            this.id = id;
        }

        public String getTitle() {
            return title;
        }

        public void setTitle(String title) {
            this.title = title;
        }

        public int getCopies() {
            return copies;
        }

        public void setCopies(int copies) {
            this.copies = copies;
        }
    }

    /** The mapper: generated keys two ways, a query, an update. */
    public interface BookMapper {
        @Insert("INSERT INTO book(title, copies) VALUES (#{title}, #{copies})")
        @Options(useGeneratedKeys = true, keyProperty = "id")
        int insert(Book book);

        /** The id read back with the idiom many SQLite mappers use. */
        @Insert("INSERT INTO book(title, copies) VALUES (#{title}, #{copies})")
        @SelectKey(statement = "SELECT last_insert_rowid()", keyProperty = "id", before = false,
                resultType = Long.class)
        int insertSelectingKey(Book book);

        @Select("SELECT id, title, copies FROM book WHERE id = #{id}")
        Book find(@Param("id") long id);

        @Select("SELECT id, title, copies FROM book ORDER BY id")
        List<Book> all();

        @Update("UPDATE book SET copies = #{copies} WHERE id = #{id}")
        int setCopies(@Param("id") long id, @Param("copies") int copies);
    }

    private SqlSessionFactory factory(Database db) {
        Configuration configuration = new Configuration(
                new Environment("lanes", new JdbcTransactionFactory(), db.dataSource()));
        configuration.addMapper(BookMapper.class);
        return new SqlSessionFactoryBuilder().build(configuration);
    }

    @Test
    void aMapperInsertsWithKeysQueriesAndUpdatesInTransactions() throws Exception {
        Database db = fixture.open("mybatis.db");
        db.execute("CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL, "
                + "copies INTEGER NOT NULL)");
        SqlSessionFactory factory = factory(db);

        try (SqlSession session = factory.openSession(true)) { // auto-commit
            BookMapper books = session.getMapper(BookMapper.class);
            Book dune = new Book("Dune", 1);
            assertThat(books.insert(dune)).isEqualTo(1);
            assertThat(dune.getId()).as("generated key").isEqualTo(1L);
            Book emma = new Book("Emma", 1);
            books.insertSelectingKey(emma);
            assertThat(emma.getId()).as("selectKey with last_insert_rowid(), auto-commit")
                    .isEqualTo(2L);
            assertThat(books.find(2).getTitle()).isEqualTo("Emma");
        }

        // 8 threads, each a session (a transaction): read the copies, write them back plus one
        fixture.onThreads(8, thread -> {
            for (int i = 0; i < 25; i++) {
                try (SqlSession session = factory.openSession()) {
                    BookMapper books = session.getMapper(BookMapper.class);
                    Book dune = books.find(1);
                    books.setCopies(1, dune.getCopies() + 1);
                    session.commit();
                }
            }
            return null;
        });

        try (SqlSession session = factory.openSession()) {
            BookMapper books = session.getMapper(BookMapper.class);
            Book odyssey = new Book("Odyssey", 3);
            books.insertSelectingKey(odyssey);
            assertThat(odyssey.getId()).as("selectKey inside a transaction").isEqualTo(3L);
            session.rollback(true);
        }
        try (SqlSession session = factory.openSession()) {
            List<Book> all = session.getMapper(BookMapper.class).all();
            assertThat(all).extracting(Book::getTitle).containsExactly("Dune", "Emma");
            assertThat(all.get(0).getCopies()).as("no increment lost").isEqualTo(201);
        }
        assertThat(db.isTransactionOpen()).isFalse();
    }
}
