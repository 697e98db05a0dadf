/**
 * User tables as the service knows them (modes, columns, attribute groups and their ordering,
 * indexes, history horizon and retention), persisted with Spring Data JDBC in schema {@code verso}
 * and cached per catalog version for readers.
 */
package io.verso.catalog;
