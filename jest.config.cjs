module.exports = {
  projects: ['webpack', 'shared-config', 'host', 'remote-home', 'remote-about', 'remote-contact', 'server', 'deploy'].map(
    (name) => `<rootDir>/${name}`,
  ),
};
