/**
 * The commit log: one record per commit with its sequence, time, and the tables it touched, kept
 * through Spring Data JDBC in the transaction that makes the commit.
 */
package io.verso.commits;
