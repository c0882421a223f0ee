/**
 * Configuration keys, their value types and checks, shared by the trainer's schema and every compressor's
 * parameters.
 */
package org.gridrun.engine.config;
