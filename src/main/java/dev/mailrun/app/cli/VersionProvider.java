package dev.mailrun.app.cli;

import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"mailrun " + (v == null ? "(development build)" : v)};
    }
}
