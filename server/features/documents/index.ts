/**
 * The documents feature's public face (issue 28): asking for an uploaded file to be read (the
 * attachments' and the document requests' uploads call it in their transaction), the reader that
 * reads them in the background (started by the app), the readings of a request's files (the
 * requests feature's route), and the routes.
 */
export { documentsRoutes } from "./readings.routes.ts";
export { enqueueReading, isReadable, type ReadingRequest } from "./readings.queue.ts";
export { readDueDocuments, startDocumentReader, type ReaderContext } from "./reader.worker.ts";
export { listRequestReadings, presentReading } from "./readings.repository.ts";
